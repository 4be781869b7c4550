//go:build !purego

#include "textflag.h"

// The table for VPSHUFB: a byte x is a NUL or a CR exactly when
// table[x & 15] == x (a byte with its high bit set looks up 0).
DATA nulCR<>+0(SB)/8, $0
DATA nulCR<>+8(SB)/8, $0x00000D0000000000
GLOBL nulCR<>(SB), RODATA|NOPTR, $16

// func scanLinesAVX512(s string, lines []uint32, shift uint) bool
// For each whole block k of s, 1<<shift bytes (shift >= 10), writes the
// newlines of s[:(k+1)<<shift] to lines[k+1], and reports whether it met
// a NUL or a CR (it stops at the end of that block). len(lines) >
// len(s)>>shift. A step takes 128 places in two registers: K1 and K4 mark
// their newlines, counted by POPCNT into DX; K2 and K5 their NULs and CRs
// (Z1: the table above in every lane), or'ed into K3, tested once a
// block.
TEXT ·scanLinesAVX512(SB), NOSPLIT, $0-49
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), AX
	MOVQ lines_base+16(FP), DI
	MOVQ shift+40(FP), CX
	MOVQ $1, R8
	SHLQ CX, R8          // R8: the block's size
	SHRQ CX, AX
	MOVQ AX, CX          // CX: the whole blocks
	XORQ DX, DX
	MOVL $0x0a, AX
	VPBROADCASTB AX, Z0
	VBROADCASTI32X4 nulCR<>(SB), Z1
	KXORQ K3, K3, K3

zblock:
	TESTQ CX, CX
	JZ zclean
	LEAQ (SI)(R8*1), R11

zstep:
	VMOVDQU8 (SI), Z2
	VMOVDQU8 64(SI), Z4
	VPCMPEQB Z0, Z2, K1
	VPCMPEQB Z0, Z4, K4
	VPSHUFB Z2, Z1, Z3
	VPSHUFB Z4, Z1, Z5
	KMOVQ K1, AX
	KMOVQ K4, BX
	POPCNTQ AX, AX
	POPCNTQ BX, BX
	ADDQ AX, DX
	ADDQ BX, DX
	VPCMPEQB Z2, Z3, K2
	VPCMPEQB Z4, Z5, K5
	KORQ K2, K3, K3
	KORQ K5, K3, K3
	ADDQ $128, SI
	CMPQ SI, R11
	JB zstep

	ADDQ $4, DI
	MOVL DX, (DI)
	DECQ CX
	KORTESTQ K3, K3
	JZ zblock
	VZEROUPPER
	MOVB $1, ret+48(FP)
	RET

zclean:
	VZEROUPPER
	MOVB $0, ret+48(FP)
	RET

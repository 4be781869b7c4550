//go:build !purego

#include "textflag.h"

// func indexesAVX2(s string, c byte, out []int32, base int) (n, done int)
// SI: the text; CX: its length cut to whole steps; Y0: c in every byte;
// DI, R8: out's start and length; R9: base; BX: the offset read to; DX:
// the places written. The main loop tests 128 bytes at once (four
// compares, or'ed) and walks their places only when there are some, as
// 64-bit masks, lowest bit first: BSF finds it, m&(m-1) clears it. The
// second loop takes 32 bytes a step: the rest of s, or while out has room
// for 32 places but not 128; a step with places goes through the same
// walk.
TEXT ·indexesAVX2(SB), NOSPLIT, $0-72
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), CX
	ANDQ $~31, CX
	MOVBLZX c+16(FP), AX
	MOVQ out_base+24(FP), DI
	MOVQ out_len+32(FP), R8
	MOVQ base+48(FP), R9
	XORQ BX, BX
	XORQ DX, DX
	MOVQ AX, X0
	VPBROADCASTB X0, Y0

quad:
	LEAQ 128(BX), R10
	CMPQ R10, CX
	JGT loop
	LEAQ 128(DX), R10
	CMPQ R10, R8
	JGT loop
	VMOVDQU (SI)(BX*1), Y1
	VMOVDQU 32(SI)(BX*1), Y2
	VMOVDQU 64(SI)(BX*1), Y3
	VMOVDQU 96(SI)(BX*1), Y4
	VPCMPEQB Y0, Y1, Y1
	VPCMPEQB Y0, Y2, Y2
	VPCMPEQB Y0, Y3, Y3
	VPCMPEQB Y0, Y4, Y4
	VPOR Y1, Y2, Y5
	VPOR Y3, Y4, Y6
	VPOR Y5, Y6, Y5
	VPTEST Y5, Y5
	JNZ quadwalk
	ADDQ $128, BX
	JMP quad

quadwalk:
	VPMOVMSKB Y1, R11
	VPMOVMSKB Y2, R12
	SHLQ $32, R12
	ORQ R12, R11         // the first 64 places' mask
	VPMOVMSKB Y3, AX
	VPMOVMSKB Y4, R12
	SHLQ $32, R12
	ORQ R12, AX          // the next 64's
	LEAQ (R9)(BX*1), R13 // the offset of the mask's bit 0
	LEAQ 128(R13), R10   // where the step ends

// For each set bit i of R11, then of AX (the next 64 places) while R13 is
// below the step's end R10, write R13+i to out; then go on at the step's
// end, BX = R10-R9, with the main loop (which hands back to loop when it
// cannot take 128 more).
mask:
	TESTQ R11, R11
	JZ masknext

bits:
	BSFQ R11, R12
	LEAQ (R13)(R12*1), R14
	MOVL R14, (DI)(DX*4)
	INCQ DX
	LEAQ -1(R11), R12
	ANDQ R12, R11
	JNZ bits

masknext:
	MOVQ AX, R11
	ADDQ $64, R13
	CMPQ R13, R10
	JLT mask
	MOVQ R10, BX
	SUBQ R9, BX
	JMP quad

loop:
	CMPQ BX, CX
	JGE end
	LEAQ 32(DX), R10
	CMPQ R10, R8
	JGT end
	VMOVDQU (SI)(BX*1), Y1
	VPCMPEQB Y0, Y1, Y1
	VPMOVMSKB Y1, R11
	TESTL R11, R11
	JZ next
	LEAQ (R9)(BX*1), R13
	LEAQ 32(R13), R10    // a 32-byte step: the walk stops after R11
	JMP mask

next:
	ADDQ $32, BX
	JMP loop

end:
	VZEROUPPER
	MOVQ DX, n+56(FP)
	MOVQ BX, done+64(FP)
	RET

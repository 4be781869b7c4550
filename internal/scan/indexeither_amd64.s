//go:build !purego

#include "textflag.h"

// func indexEitherAVX2(s string, a, b byte) int
// The first place of s[:len(s)&^31] that holds a or b, or -1. Y0, Y1: a
// and b in every byte; a step compares 32 places with both and ors the
// masks, two steps at a time as in indexPairAVX2.
TEXT ·indexEitherAVX2(SB), NOSPLIT, $0-32
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), CX
	MOVBLZX a+16(FP), AX
	MOVBLZX b+17(FP), BX
	XORQ DI, DI
	MOVQ AX, X0
	VPBROADCASTB X0, Y0
	MOVQ BX, X1
	VPBROADCASTB X1, Y1
	LEAQ -64(CX), R11
	CMPQ DI, R11
	JGT single

double:
	VMOVDQU (SI)(DI*1), Y2
	VMOVDQU 32(SI)(DI*1), Y4
	VPCMPEQB Y0, Y2, Y3
	VPCMPEQB Y1, Y2, Y2
	VPCMPEQB Y0, Y4, Y5
	VPCMPEQB Y1, Y4, Y4
	VPOR Y2, Y3, Y2
	VPOR Y4, Y5, Y4
	VPOR Y2, Y4, Y6
	VPTEST Y6, Y6
	JNZ doublefound
	ADDQ $64, DI
	CMPQ DI, R11
	JLE double

single:
	LEAQ -32(CX), R11
	CMPQ DI, R11
	JGT notfound
	VMOVDQU (SI)(DI*1), Y2
	VPCMPEQB Y0, Y2, Y3
	VPCMPEQB Y1, Y2, Y2
	VPOR Y2, Y3, Y2
	VPMOVMSKB Y2, R10
	TESTL R10, R10
	JNZ found

notfound:
	VZEROUPPER
	MOVQ $-1, ret+24(FP)
	RET

doublefound:
	VPMOVMSKB Y2, R10
	TESTL R10, R10
	JNZ found
	VPMOVMSKB Y4, R10
	ADDQ $32, DI

found:
	VZEROUPPER
	BSFL R10, R10
	ADDQ R10, DI
	MOVQ DI, ret+24(FP)
	RET

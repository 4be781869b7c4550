//go:build !purego

#include "textflag.h"

// func indexPairAVX2(s string, c1, c2 byte, d int) int
// SI: the text; R9: the text d on; CX: the places m = len(s)-d; DI: the
// place. Y0, Y1: c1 and c2 in every byte. A step loads s[i:i+32] and
// s[i+d:i+d+32], compares them with c1 and c2 and ands the two masks: bit
// k is set when place i+k holds c1 and place i+k+d holds c2. The main
// loop takes two steps at once (64 places) and tests their masks
// together; a last single step takes 32 places more when they fit.
TEXT ·indexPairAVX2(SB), NOSPLIT, $0-40
	MOVQ s_base+0(FP), SI
	MOVQ s_len+8(FP), CX
	MOVBLZX c1+16(FP), AX
	MOVBLZX c2+17(FP), BX
	MOVQ d+24(FP), DX
	SUBQ DX, CX
	LEAQ (SI)(DX*1), R9
	XORQ DI, DI
	MOVQ AX, X0
	VPBROADCASTB X0, Y0
	MOVQ BX, X1
	VPBROADCASTB X1, Y1
	LEAQ -64(CX), R11    // the last double step's first place
	CMPQ DI, R11
	JGT single

double:
	VMOVDQU (SI)(DI*1), Y2
	VMOVDQU (R9)(DI*1), Y3
	VMOVDQU 32(SI)(DI*1), Y4
	VMOVDQU 32(R9)(DI*1), Y5
	VPCMPEQB Y0, Y2, Y2
	VPCMPEQB Y1, Y3, Y3
	VPCMPEQB Y0, Y4, Y4
	VPCMPEQB Y1, Y5, Y5
	VPAND Y2, Y3, Y2
	VPAND Y4, Y5, Y4
	VPOR Y2, Y4, Y6
	VPTEST Y6, Y6
	JNZ doublefound
	ADDQ $64, DI
	CMPQ DI, R11
	JLE double

single:
	LEAQ -32(CX), R11    // the last single step's first place
	CMPQ DI, R11
	JGT notfound
	VMOVDQU (SI)(DI*1), Y2
	VMOVDQU (R9)(DI*1), Y3
	VPCMPEQB Y0, Y2, Y2
	VPCMPEQB Y1, Y3, Y3
	VPAND Y2, Y3, Y2
	VPMOVMSKB Y2, R10
	TESTL R10, R10
	JNZ found

notfound:
	VZEROUPPER
	MOVQ $-1, ret+32(FP)
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
	MOVQ DI, ret+32(FP)
	RET

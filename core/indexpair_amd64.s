//go:build !purego

#include "textflag.h"

// PAIR_ARGS loads the arguments of both pair scans, (s string, c1, c2
// byte, d int): SI the text, R9 the text d on, CX the places m =
// len(s)-d, AX and BX the two bytes, DI the first place, 0.
#define PAIR_ARGS \
	MOVQ s_base+0(FP), SI; \
	MOVQ s_len+8(FP), CX; \
	MOVBLZX c1+16(FP), AX; \
	MOVBLZX c2+17(FP), BX; \
	MOVQ d+24(FP), DX; \
	SUBQ DX, CX; \
	LEAQ (SI)(DX*1), R9; \
	XORQ DI, DI

// PLACES_ARGS loads the arguments of both places scans, (s string, c
// byte, out []int32, base int): SI the text, CX its length cut by mask to
// whole steps, AX the byte, DI and R8 out's start and length, R9 base; BX
// (the offset read to) and DX (the places written) start at 0.
#define PLACES_ARGS(mask) \
	MOVQ s_base+0(FP), SI; \
	MOVQ s_len+8(FP), CX; \
	ANDQ mask, CX; \
	MOVBLZX c+16(FP), AX; \
	MOVQ out_base+24(FP), DI; \
	MOVQ out_len+32(FP), R8; \
	MOVQ base+48(FP), R9; \
	XORQ BX, BX; \
	XORQ DX, DX

// PLACES_WALK ends a step of both places scans: for each set bit i of
// R11, then of AX (the next 64 places) while R13 is below the step's end
// R10, it writes R13+i to out (DI, DX entries so far); then it goes on
// at the step's end, BX = R10-R9, with the loop at next. Labels are per
// function, so each scan names its own.
#define PLACES_WALK(mask, bits, masknext, next) \
mask: \
	TESTQ R11, R11; \
	JZ masknext; \
bits: \
	BSFQ R11, R12; \
	LEAQ (R13)(R12*1), R14; \
	MOVL R14, (DI)(DX*4); \
	INCQ DX; \
	LEAQ -1(R11), R12; \
	ANDQ R12, R11; \
	JNZ bits; \
masknext: \
	MOVQ AX, R11; \
	ADDQ $64, R13; \
	CMPQ R13, R10; \
	JLT mask; \
	MOVQ R10, BX; \
	SUBQ R9, BX; \
	JMP next

// func indexPairSIMD(s string, c1, c2 byte, d int) int
// Y0, Y1: c1 and c2 in every byte. A step loads s[i:i+32] and
// s[i+d:i+d+32], compares them with c1 and c2 and ands the two masks: bit
// k is set when place i+k holds c1 and place i+k+d holds c2. The main
// loop takes two steps at once (64 places) and tests their masks
// together; a last single step takes 32 places more when they fit.
TEXT ·indexPairSIMD(SB), NOSPLIT, $0-40
	PAIR_ARGS
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

// func indexEitherSIMD(s string, a, b byte) int
// The first place of s[:len(s)&^31] that holds a or b, or -1. Y0, Y1: a
// and b in every byte; a step compares 32 places with both and ors the
// masks, two steps at a time as in indexPairSIMD.
TEXT ·indexEitherSIMD(SB), NOSPLIT, $0-32
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
	JGT esingle

edouble:
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
	JNZ edoublefound
	ADDQ $64, DI
	CMPQ DI, R11
	JLE edouble

esingle:
	LEAQ -32(CX), R11
	CMPQ DI, R11
	JGT enotfound
	VMOVDQU (SI)(DI*1), Y2
	VPCMPEQB Y0, Y2, Y3
	VPCMPEQB Y1, Y2, Y2
	VPOR Y2, Y3, Y2
	VPMOVMSKB Y2, R10
	TESTL R10, R10
	JNZ efound

enotfound:
	VZEROUPPER
	MOVQ $-1, ret+24(FP)
	RET

edoublefound:
	VPMOVMSKB Y2, R10
	TESTL R10, R10
	JNZ efound
	VPMOVMSKB Y4, R10
	ADDQ $32, DI

efound:
	VZEROUPPER
	BSFL R10, R10
	ADDQ R10, DI
	MOVQ DI, ret+24(FP)
	RET

// func placesSIMD(s string, c byte, out []int32, base int) (n, done int)
// Writes base+i to out for each place i of s[:len(s)&^31] that holds c,
// in order, and returns how many it wrote and how far into s it read (a
// multiple of 32). It stops early when out has no room left for a whole
// step's places. The main loop tests 128 bytes at once (four compares,
// or'ed) and walks their places only when there are some, as 64-bit
// masks, lowest bit first: BSF finds it, m&(m-1) clears it. The second
// loop takes 32 bytes a step: the rest of s, or while out has room for
// 32 places but not 128; a step with places goes through the same walk.
TEXT ·placesSIMD(SB), NOSPLIT, $0-72
	PLACES_ARGS($~31)
	MOVQ AX, X0
	VPBROADCASTB X0, Y0

pquad:
	LEAQ 128(BX), R10
	CMPQ R10, CX
	JGT ploop
	LEAQ 128(DX), R10
	CMPQ R10, R8
	JGT ploop
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
	JNZ pwalk
	ADDQ $128, BX
	JMP pquad

pwalk:
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

	PLACES_WALK(pmask, pbits64, pmasknext, pquad)

ploop:
	CMPQ BX, CX
	JGE pdone
	LEAQ 32(DX), R10
	CMPQ R10, R8
	JGT pdone
	VMOVDQU (SI)(BX*1), Y1
	VPCMPEQB Y0, Y1, Y1
	VPMOVMSKB Y1, R11
	TESTL R11, R11
	JZ pnext
	LEAQ (R9)(BX*1), R13
	LEAQ 32(R13), R10    // a 32-byte step: the walk stops after R11
	JMP pmask            // the same walk; it goes on at pquad, which comes back here

pnext:
	ADDQ $32, BX
	JMP ploop

pdone:
	VZEROUPPER
	MOVQ DX, n+56(FP)
	MOVQ BX, done+64(FP)
	RET

// func indexPairAVX512(s string, c1, c2 byte, d int) int
// indexPairSIMD with 64 places a compare: K1 marks the places that hold
// c1, and the compare of the places d on runs under it, so K2 marks the
// pairs. The main loop takes 128 places, a last single step 64 more when
// they fit; the places [0, m&^63) are read, m = len(s)-d >= 64.
TEXT ·indexPairAVX512(SB), NOSPLIT, $0-40
	PAIR_ARGS
	VPBROADCASTB AX, Z0
	VPBROADCASTB BX, Z1
	LEAQ -128(CX), R11
	CMPQ DI, R11
	JGT zsingle

zdouble:
	VPCMPEQB (SI)(DI*1), Z0, K1
	VPCMPEQB (R9)(DI*1), Z1, K1, K2
	VPCMPEQB 64(SI)(DI*1), Z0, K3
	VPCMPEQB 64(R9)(DI*1), Z1, K3, K4
	KORTESTQ K2, K4
	JNZ zdoublefound
	ADDQ $128, DI
	CMPQ DI, R11
	JLE zdouble

zsingle:
	LEAQ -64(CX), R11
	CMPQ DI, R11
	JGT znotfound
	VPCMPEQB (SI)(DI*1), Z0, K1
	VPCMPEQB (R9)(DI*1), Z1, K1, K2
	KMOVQ K2, R10
	TESTQ R10, R10
	JNZ zfound

znotfound:
	VZEROUPPER
	MOVQ $-1, ret+32(FP)
	RET

zdoublefound:
	KMOVQ K2, R10
	TESTQ R10, R10
	JNZ zfound
	KMOVQ K4, R10
	ADDQ $64, DI

zfound:
	VZEROUPPER
	BSFQ R10, R10
	ADDQ R10, DI
	MOVQ DI, ret+32(FP)
	RET

// func placesAVX512(s string, c byte, out []int32, base int) (n, done int)
// placesSIMD with 64 places a compare, into K1 and K2: it reads
// s[:len(s)&^63], 128 places a step while out has room for them, then 64
// while it has room for those; the walk of a step's places is
// placesSIMD's, its masks straight from the compares.
TEXT ·placesAVX512(SB), NOSPLIT, $0-72
	PLACES_ARGS($~63)
	VPBROADCASTB AX, Z0

zpdouble:
	LEAQ 128(BX), R10
	CMPQ R10, CX
	JGT zploop
	LEAQ 128(DX), R10
	CMPQ R10, R8
	JGT zploop
	VPCMPEQB (SI)(BX*1), Z0, K1
	VPCMPEQB 64(SI)(BX*1), Z0, K2
	KORTESTQ K1, K2
	JNZ zpwalk
	ADDQ $128, BX
	JMP zpdouble

zpwalk:
	KMOVQ K1, R11
	KMOVQ K2, AX
	LEAQ (R9)(BX*1), R13 // the offset of the mask's bit 0
	LEAQ 128(R13), R10   // where the step ends

	PLACES_WALK(zpmask, zpbits, zpmasknext, zpdouble)

zploop:
	CMPQ BX, CX
	JGE zpdone
	LEAQ 64(DX), R10
	CMPQ R10, R8
	JGT zpdone
	VPCMPEQB (SI)(BX*1), Z0, K1
	KMOVQ K1, R11
	TESTQ R11, R11
	JZ zpnext
	LEAQ (R9)(BX*1), R13
	LEAQ 64(R13), R10    // a 64-byte step: the walk stops after R11
	JMP zpmask

zpnext:
	ADDQ $64, BX
	JMP zploop

zpdone:
	VZEROUPPER
	MOVQ DX, n+56(FP)
	MOVQ BX, done+64(FP)
	RET

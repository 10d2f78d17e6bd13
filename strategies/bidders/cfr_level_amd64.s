#include "textflag.h"

// One CFR+ step at the nodes of one beacon, eight nodes (lanes) at a time
// in two groups of four whose chains of additions overlap: see levelGo in
// stage.go for the same step written node by node, and stageLevelArgs in
// cfr_level.go for the argument's layout. A row of the strategy, regrets
// and scratch is stageLanes*8 = 128 bytes; a group is 32 bytes of it. The
// lanes of bid x that are padding (x not below the node's number of bids)
// are masked to 0.

DATA stageOne<>+0(SB)/8, $1.0
GLOBL stageOne<>(SB), RODATA|NOPTR, $8

// CLIP sets d0 and d1 to max(0, d+q-v) in the lanes of the masks m0 and m1
// (0 elsewhere), for the pair's two groups: q in q0 and q1, v in Y0 and Y3.
#define CLIP(q0, q1, d0, d1, m0, m1) \
	VADDPD q0, d0, d0; \
	VADDPD q1, d1, d1; \
	VSUBPD Y0, d0, d0; \
	VSUBPD Y3, d1, d1; \
	VMAXPD Y15, d0, d0; \
	VMAXPD Y15, d1, d1; \
	VANDPD m0, d0, d0; \
	VANDPD m1, d1, d1

// func stageLevel(a *stageLevelArgs)
TEXT ·stageLevel(SB), NOSPLIT, $0-8
	MOVQ a+0(FP), DI
	MOVQ 72(DI), R8              // groups
	INCQ R8
	SHRQ $1, R8                  // pairs of groups
	XORQ R10, R10                // byte offset of the pair's first lane
	VXORPD Y15, Y15, Y15         // 0
	VBROADCASTSD stageOne<>(SB), Y14

pair:
	MOVQ R10, BX
	SHRQ $3, BX
	MOVQ 80(DI)(BX*1), R9        // moves of the pair's first node (bids beyond are padding in all its lanes)
	MOVQ 0(DI), R11
	ADDQ R10, R11                // sig
	MOVQ 8(DI), R12
	ADDQ R10, R12                // reg
	MOVQ 16(DI), R13
	ADDQ R10, R13                // bids
	MOVQ 64(DI), SI
	ADDQ R10, SI                 // q
	MOVQ 48(DI), AX
	ADDQ R10, AX                 // next, from the pair's first node
	MOVQ 40(DI), DX              // w

	// q[x] = w[x] + next[t+x]; v += sig[x] * q[x]  (v: Y0 and Y3)
	VXORPD Y0, Y0, Y0
	VXORPD Y3, Y3, Y3
	XORQ BX, BX
	XORQ CX, CX
pass1:
	VBROADCASTSD (DX)(CX*8), Y1
	VADDPD (AX)(CX*8), Y1, Y2
	VADDPD 32(AX)(CX*8), Y1, Y4
	VMOVUPD Y2, (SI)(BX*1)
	VMOVUPD Y4, 32(SI)(BX*1)
	VMULPD (R11)(BX*1), Y2, Y2
	VMULPD 32(R11)(BX*1), Y4, Y4
	VADDPD Y2, Y0, Y0
	VADDPD Y4, Y3, Y3
	ADDQ $128, BX
	INCQ CX
	CMPQ CX, R9
	JLT pass1

	// A node with one bid is worth q[0]; store the values.
	MOVQ 24(DI), BX
	VMOVUPD (BX)(R10*1), Y5
	VMOVUPD (SI), Y4
	VBLENDVPD Y5, Y4, Y0, Y0
	VMOVUPD 32(BX)(R10*1), Y5
	VMOVUPD 32(SI), Y4
	VBLENDVPD Y5, Y4, Y3, Y3
	MOVQ 56(DI), BX
	VMOVUPD Y0, (BX)(R10*1)
	VMOVUPD Y3, 32(BX)(R10*1)

	// r = max(0, reg[x]+q[x]-v); reg[x] = r; q[x] = max(0, r+q[x]-v);
	// total += q[x]  (total: Y6 and Y11)
	VXORPD Y6, Y6, Y6
	VXORPD Y11, Y11, Y11
	VXORPD Y4, Y4, Y4            // x in every lane
	VMOVUPD (R13), Y5            // bids of each node
	VMOVUPD 32(R13), Y8
	XORQ BX, BX
	XORQ CX, CX
pass2:
	VCMPPD $1, Y5, Y4, Y9        // x < bids
	VCMPPD $1, Y8, Y4, Y10
	VMOVUPD (SI)(BX*1), Y1
	VMOVUPD 32(SI)(BX*1), Y7
	VMOVUPD (R12)(BX*1), Y2
	VMOVUPD 32(R12)(BX*1), Y12
	CLIP(Y1, Y7, Y2, Y12, Y9, Y10)
	VMOVUPD Y2, (R12)(BX*1)
	VMOVUPD Y12, 32(R12)(BX*1)
	CLIP(Y1, Y7, Y2, Y12, Y9, Y10)
	VMOVUPD Y2, (SI)(BX*1)
	VMOVUPD Y12, 32(SI)(BX*1)
	VADDPD Y2, Y6, Y6
	VADDPD Y12, Y11, Y11
	VADDPD Y14, Y4, Y4
	ADDQ $128, BX
	INCQ CX
	CMPQ CX, R9
	JLT pass2

	// sig[x] = q[x] * (1/total) where total > 0, else uniform.
	VDIVPD Y6, Y14, Y8
	VDIVPD Y11, Y14, Y12
	VCMPPD $1, Y6, Y15, Y9       // 0 < total
	VCMPPD $1, Y11, Y15, Y13
	MOVQ 32(DI), BX
	VMOVUPD (BX)(R10*1), Y10
	VMOVUPD 32(BX)(R10*1), Y11
	VXORPD Y0, Y0, Y0            // x in every lane
	VMOVUPD (R13), Y3            // bids of each node
	VMOVUPD 32(R13), Y4
	XORQ BX, BX
	XORQ CX, CX
pass3:
	VCMPPD $1, Y3, Y0, Y5        // x < bids
	VCMPPD $1, Y4, Y0, Y6
	VMULPD (SI)(BX*1), Y8, Y1
	VMULPD 32(SI)(BX*1), Y12, Y2
	VBLENDVPD Y9, Y1, Y10, Y1
	VBLENDVPD Y13, Y2, Y11, Y2
	VANDPD Y5, Y1, Y1
	VANDPD Y6, Y2, Y2
	VADDPD Y14, Y0, Y0
	VMOVUPD Y1, (R11)(BX*1)
	VMOVUPD Y2, 32(R11)(BX*1)
	ADDQ $128, BX
	INCQ CX
	CMPQ CX, R9
	JLT pass3

	ADDQ $64, R10
	DECQ R8
	JNZ pair
	VZEROUPPER
	RET

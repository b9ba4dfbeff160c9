//go:build amd64 && !purego

#include "textflag.h"

// CHUNK(off, shift) compares the sixteen bytes at off(SI) with the
// broadcast byte in X1 and ORs the 16-bit mask, shifted left by shift,
// into AX.
#define CHUNK(off, shift) \
	MOVOU    off(SI), X0 \
	PCMPEQB  X1, X0 \
	PMOVMSKB X0, DX \
	SHLQ     $shift, DX \
	ORQ      DX, AX

// func match64(p *[64]byte, c byte) uint64
//
// SSE2 (always present on amd64).
TEXT ·match64(SB), NOSPLIT, $0-24
	MOVQ      p+0(FP), SI
	MOVBLZX   c+8(FP), AX
	IMULL     $0x01010101, AX
	MOVL      AX, X1
	PSHUFD    $0, X1, X1
	MOVOU     (SI), X0
	PCMPEQB   X1, X0
	PMOVMSKB  X0, AX
	CHUNK(16, 16)
	CHUNK(32, 32)
	CHUNK(48, 48)
	MOVQ      AX, ret+16(FP)
	RET


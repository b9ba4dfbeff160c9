//go:build amd64 && !purego

#include "textflag.h"

// BYTES16(name, word) defines name<> as sixteen read-only bytes, the
// eight of word twice: a byte repeated in each lane of an XMM register.
#define BYTES16(name, word) \
	DATA name<>+0(SB)/8, $word \
	DATA name<>+8(SB)/8, $word \
	GLOBL name<>(SB), RODATA|NOPTR, $16

// How match and matchArgs read the block of b at offset i (i < len(b)),
// n = min(len(b)-i, 64) bytes: they compare sixteen bytes at a time and
// make a 16-bit mask of each (PCMPEQB, PMOVMSKB), shifted to its place in a
// 64-bit bitmap of a region of b that holds the block, then shift that
// bitmap right to start at b[i] and clear the bits past n. The region:
//   - the 64 bytes from i, when b has them;
//   - else the last 64 bytes of b, when it has 64;
//   - else all of b, when it has 16 or more: whole sixteens from its
//     start, then the last sixteen again (bytes read twice give the same
//     bits, so ORing them again changes nothing);
//   - else (fewer than 16 bytes) one 16-byte load that stays within the
//     memory page of b: from b's start if that does not cross into the
//     next page, else the sixteen that end at b's end (shifted down), as
//     the runtime's IndexByte does. Bytes outside b are masked off.
//
// REGION sets SI to the region's start, BX to its length (16 to 64; 16
// for a short b), R9 to the right shift and R10 to the mask of the n bits
// kept. In: SI = &b[0], BX = len(b), R8 = i. Uses CX and DX.
#define REGION \
	MOVQ BX, DX \
	SUBQ R8, DX \
	MOVQ $-1, R10 \
	XORQ R9, R9 \
	CMPQ DX, $64 \
	JB   region_part \
	ADDQ R8, SI \
	MOVQ $64, BX \
	JMP  region_done \
region_part: \
	MOVQ DX, CX \
	SHLQ CX, R10 \
	NOTQ R10 \
	CMPQ BX, $64 \
	JB   region_small \
	LEAQ -64(SI)(BX*1), SI \
	MOVQ $64, R9 \
	SUBQ DX, R9 \
	MOVQ $64, BX \
	JMP  region_done \
region_small: \
	MOVQ R8, R9 \
	CMPQ BX, $16 \
	JAE  region_done \
	MOVQ SI, CX \
	ANDQ $4095, CX \
	CMPQ CX, $4080 \
	JBE  region_short \
	LEAQ -16(SI)(BX*1), SI \
	MOVQ $16, CX \
	SUBQ BX, CX \
	ADDQ CX, R9 \
region_short: \
	MOVQ $16, BX \
region_done:

// BLOCKS(MASK) runs MASK on the sixteen bytes at CX(SI) for CX = 0, 16,
// ... while sixteen fit in the region's BX bytes, then once more for
// CX = BX-16 when bytes remain. Uses DI.
#define BLOCKS(MASK) \
	XORQ CX, CX \
blocks: \
	LEAQ 16(CX), DI \
	CMPQ DI, BX \
	JA   blocks_tail \
	MASK \
	MOVQ DI, CX \
	JMP  blocks \
blocks_tail: \
	CMPQ CX, BX \
	JAE  blocks_done \
	LEAQ -16(BX), CX \
	MASK \
blocks_done:

// CHUNK(off, shift) compares the sixteen bytes at off(SI) with the
// broadcast byte in X1 and ORs the mask, shifted left by shift, into AX.
#define CHUNK(off, shift) \
	MOVOU    off(SI), X0 \
	PCMPEQB  X1, X0 \
	PMOVMSKB X0, DX \
	SHLQ     $shift, DX \
	ORQ      DX, AX

// MASK1 is CHUNK at offset CX.
#define MASK1 \
	MOVOU    (SI)(CX*1), X0 \
	PCMPEQB  X1, X0 \
	PMOVMSKB X0, DX \
	SHLQ     CX, DX \
	ORQ      DX, AX

// func match(b []byte, i int, c byte) uint64
TEXT ·match(SB), NOSPLIT, $0-48
	MOVQ    b_base+0(FP), SI
	MOVQ    b_len+8(FP), BX
	MOVQ    i+24(FP), R8
	MOVBLZX c+32(FP), AX
	IMULL   $0x01010101, AX
	MOVL    AX, X1
	PSHUFD  $0, X1, X1
	REGION
	XORQ    AX, AX
	CMPQ    BX, $64
	JNE     part
	CHUNK(0, 0)
	CHUNK(16, 16)
	CHUNK(32, 32)
	CHUNK(48, 48)
	JMP     done

part:
	BLOCKS(MASK1)

done:
	MOVQ R9, CX
	SHRQ CX, AX
	ANDQ R10, AX
	MOVQ AX, ret+40(FP)
	RET

BYTES16(pathSlash, 0x2f2f2f2f2f2f2f2f)

BYTES16(pathDot, 0x2e2e2e2e2e2e2e2e)

BYTES16(pathPercent, 0x2525252525252525)

BYTES16(pathBackslash, 0x5c5c5c5c5c5c5c5c)

BYTES16(pathDEL, 0x7f7f7f7f7f7f7f7f)

BYTES16(pathCTL, 0x1f1f1f1f1f1f1f1f)

// PLAIN marks the sixteen bytes at addr: "/" into AX, "/" or "." into DX,
// and "%", backslash, %x00-1F and DEL into R12 (the saturating subtraction
// of 0x1F in X13 leaves zero exactly for the bytes up to 0x1F). Wants the
// path* constants in X8-X13 and zero in X14. Uses X0-X5.
#define PLAIN(addr) \
	MOVOU    addr, X0 \
	MOVOU    X0, X1 \
	MOVOU    X0, X2 \
	MOVOU    X0, X3 \
	MOVOU    X0, X4 \
	MOVOU    X0, X5 \
	PCMPEQB  X8, X1 \
	PCMPEQB  X9, X2 \
	PCMPEQB  X10, X3 \
	PCMPEQB  X11, X4 \
	PCMPEQB  X12, X5 \
	PSUBUSB  X13, X0 \
	PCMPEQB  X14, X0 \
	POR      X4, X3 \
	POR      X5, X3 \
	POR      X0, X3 \
	POR      X1, X2 \
	PMOVMSKB X1, AX \
	PMOVMSKB X2, DX \
	PMOVMSKB X3, R12

// func plainPath(b []byte) bool
//
// A byte is bad when PLAIN puts it in R12, or in DX with a "/" before it:
// (R12 | DX & (AX<<1 | carry)), where carry is 1 when the byte before the
// sixteen is "/". Sixteen bytes at a time, then the last sixteen of b
// with the bits of the bytes already checked shifted out; a b shorter
// than sixteen is loaded as match does (within its memory page).
TEXT ·plainPath(SB), NOSPLIT, $0-25
	MOVQ  b_base+0(FP), SI
	MOVQ  b_len+8(FP), BX
	MOVOU pathSlash<>(SB), X8
	MOVOU pathDot<>(SB), X9
	MOVOU pathPercent<>(SB), X10
	MOVOU pathBackslash<>(SB), X11
	MOVOU pathDEL<>(SB), X12
	MOVOU pathCTL<>(SB), X13
	PXOR  X14, X14
	CMPQ  BX, $16
	JB    plain_short
	XORQ  CX, CX
	XORQ  R11, R11

plain_loop:
	LEAQ 16(CX), DI
	CMPQ DI, BX
	JA   plain_tail
	PLAIN((SI)(CX*1))
	MOVQ AX, R13
	SHLQ $1, R13
	ORQ  R11, R13
	ANDQ DX, R13
	ORQ  R12, R13
	JNZ  plain_no
	SHRQ $15, AX
	MOVQ AX, R11
	MOVQ DI, CX
	JMP  plain_loop

plain_tail:
	CMPQ CX, BX
	JAE  plain_yes
	LEAQ -16(BX), DI
	PLAIN((SI)(DI*1))
	SHLQ  $1, AX
	ANDQ  DX, AX
	ORQ   R12, AX
	SUBQ  DI, CX
	SHRQ  CX, AX
	TESTQ AX, AX
	JNZ   plain_no
	JMP   plain_yes

plain_short:
	TESTQ BX, BX
	JZ    plain_yes
	XORQ  CX, CX
	MOVQ  SI, DI
	ANDQ  $4095, DI
	CMPQ  DI, $4080
	JBE   plain_load
	LEAQ  -16(SI)(BX*1), SI
	MOVQ  $16, CX
	SUBQ  BX, CX

plain_load:
	PLAIN((SI))
	SHRQ CX, AX
	SHRQ CX, DX
	SHRQ CX, R12
	SHLQ $1, AX
	ANDQ DX, AX
	ORQ  R12, AX
	MOVQ BX, CX
	MOVQ $1, DX
	SHLQ CX, DX
	DECQ DX
	ANDQ DX, AX
	JNZ  plain_no

plain_yes:
	MOVB $1, ret+24(FP)
	RET

plain_no:
	MOVB $0, ret+24(FP)
	RET

BYTES16(argsAmp, 0x2626262626262626)

BYTES16(argsEq, 0x3d3d3d3d3d3d3d3d)

BYTES16(argsPlus, 0x2b2b2b2b2b2b2b2b)

// MASKARGS marks the sixteen bytes at CX(SI): "&" into R8, "=" into R9
// and "%" or "+" into R10, each mask shifted left by CX.
#define MASKARGS \
	MOVOU    (SI)(CX*1), X0 \
	MOVOU    X0, X1 \
	MOVOU    X0, X2 \
	MOVOU    X0, X3 \
	PCMPEQB  X4, X0 \
	PCMPEQB  X5, X1 \
	PCMPEQB  X6, X2 \
	PCMPEQB  X7, X3 \
	POR      X3, X2 \
	PMOVMSKB X0, AX \
	PMOVMSKB X1, DX \
	PMOVMSKB X2, R12 \
	SHLQ     CX, AX \
	SHLQ     CX, DX \
	SHLQ     CX, R12 \
	ORQ      AX, R8 \
	ORQ      DX, R9 \
	ORQ      R12, R10

// func matchArgs(b []byte, i int) (amps, eqs, esc uint64)
//
// REGION, then BLOCKS(MASKARGS) into three bitmaps (the last for two
// bytes); REGION's shift and mask, kept in R11 and R13 (so it needs no
// frame), then bring each bitmap to start at b[i] and clear the bits past
// n.
TEXT ·matchArgs(SB), NOSPLIT, $0-56
	MOVQ  b_base+0(FP), SI
	MOVQ  b_len+8(FP), BX
	MOVQ  i+24(FP), R8
	MOVOU argsAmp<>(SB), X4
	MOVOU argsEq<>(SB), X5
	MOVOU pathPercent<>(SB), X6
	MOVOU argsPlus<>(SB), X7
	REGION
	MOVQ  R9, R11
	MOVQ  R10, R13
	XORQ  R8, R8
	XORQ  R9, R9
	XORQ  R10, R10
	BLOCKS(MASKARGS)
	MOVQ  R11, CX
	SHRQ  CX, R8
	SHRQ  CX, R9
	SHRQ  CX, R10
	ANDQ  R13, R8
	ANDQ  R13, R9
	ANDQ  R13, R10
	MOVQ  R8, amps+32(FP)
	MOVQ  R9, eqs+40(FP)
	MOVQ  R10, esc+48(FP)
	RET

//go:build amd64 && !purego

#include "textflag.h"

DATA ctl1f<>+0(SB)/8, $0x1f1f1f1f1f1f1f1f
DATA ctl1f<>+8(SB)/8, $0x1f1f1f1f1f1f1f1f
GLOBL ctl1f<>(SB), RODATA|NOPTR, $16

DATA ctl7f<>+0(SB)/8, $0x7f7f7f7f7f7f7f7f
DATA ctl7f<>+8(SB)/8, $0x7f7f7f7f7f7f7f7f
GLOBL ctl7f<>(SB), RODATA|NOPTR, $16

// CTLMASK sets the bits of AX for the bytes of X0 that are at most 0x1F
// (the saturating subtraction of 0x1F leaves zero) or equal to 0x7F.
#define CTLMASK \
	MOVOU   X0, X4 \
	PSUBUSB X1, X0 \
	PCMPEQB X3, X0 \
	PCMPEQB X2, X4 \
	POR     X4, X0 \
	PMOVMSKB X0, AX

DATA tgt20<>+0(SB)/8, $0x2020202020202020
DATA tgt20<>+8(SB)/8, $0x2020202020202020
GLOBL tgt20<>(SB), RODATA|NOPTR, $16

DATA tgt23<>+0(SB)/8, $0x2323232323232323
DATA tgt23<>+8(SB)/8, $0x2323232323232323
GLOBL tgt23<>(SB), RODATA|NOPTR, $16

DATA tgt25<>+0(SB)/8, $0x2525252525252525
DATA tgt25<>+8(SB)/8, $0x2525252525252525
GLOBL tgt25<>(SB), RODATA|NOPTR, $16

// TGTMASK sets the bits of AX for the bytes of X0 that are at most 0x20,
// at least 0x7F (X2), '#' (X5) or '%' (X6). X1 holds 0x20, X3 zero.
#define TGTMASK \
	MOVOU   X0, X4 \
	MOVOU   X0, X7 \
	MOVOU   X0, X8 \
	PSUBUSB X1, X0 \
	PCMPEQB X3, X0 \
	PMAXUB  X2, X4 \
	PCMPEQB X7, X4 \
	POR     X4, X0 \
	PCMPEQB X5, X7 \
	PCMPEQB X6, X8 \
	POR     X7, X0 \
	POR     X8, X0 \
	PMOVMSKB X0, AX

// ARGS loads b and i, returns len(b) when i >= len(b) and jumps to short
// (the Go form) when b has fewer than 16 bytes; else SI is at b[i], R8 at
// the end of b.
#define ARGS \
	MOVQ b_base+0(FP), DI \
	MOVQ b_len+8(FP), BX \
	MOVQ i+24(FP), SI \
	CMPQ SI, BX \
	JAE  none \
	CMPQ BX, $16 \
	JB   short \
	ADDQ DI, SI \
	LEAQ (DI)(BX*1), R8

// SCAN16(MASK) is the loop of valueEnd and targetStop; MASK sets the
// bits of AX for the bytes of X0 that stop the scan. Sixteen bytes at a
// time; the last bytes of b by one load that ends at the end of b, with
// the bytes already checked shifted out of the mask. It goes on after its
// end with SI at the first byte that stops the scan, or jumps to none.
#define SCAN16(MASK) \
loop: \
	LEAQ 16(SI), R9 \
	CMPQ R9, R8 \
	JA   last \
	MOVOU (SI), X0 \
	MASK \
	TESTL AX, AX \
	JNZ  found \
	MOVQ R9, SI \
	JMP  loop \
last: \
	CMPQ SI, R8 \
	JAE  none \
	MOVQ R8, CX \
	SUBQ SI, CX \
	NEGQ CX \
	ADDQ $16, CX \
	LEAQ -16(R8), SI \
	MOVOU (SI), X0 \
	MASK \
	SHRL CX, AX \
	SHLL CX, AX \
	TESTL AX, AX \
	JZ   none \
found: \
	BSFL AX, CX \
	ADDQ CX, SI

// func valueEnd(b []byte, i int) int
//
// SSE2 (always present on amd64). An HTAB is valid: the scan goes on
// after it.
TEXT ·valueEnd(SB), NOSPLIT, $0-40
	ARGS
	MOVOU ctl1f<>(SB), X1
	MOVOU ctl7f<>(SB), X2
	PXOR X3, X3
	SCAN16(CTLMASK)
	CMPB (SI), $0x09
	JNE  done
	INCQ SI
	JMP  loop

short:
	JMP ·valueEndGeneric(SB)

none:
	MOVQ BX, ret+32(FP)
	RET

done:
	SUBQ DI, SI
	MOVQ SI, ret+32(FP)
	RET

// func targetStop(b []byte, i int) int
TEXT ·targetStop(SB), NOSPLIT, $0-40
	ARGS
	MOVOU tgt20<>(SB), X1
	MOVOU ctl7f<>(SB), X2
	MOVOU tgt23<>(SB), X5
	MOVOU tgt25<>(SB), X6
	PXOR X3, X3
	SCAN16(TGTMASK)
	SUBQ DI, SI
	MOVQ SI, ret+32(FP)
	RET

short:
	JMP ·targetStopGeneric(SB)

none:
	MOVQ BX, ret+32(FP)
	RET

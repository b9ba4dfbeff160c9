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

// func valueEnd(b []byte, i int) int
//
// Sixteen bytes at a time with SSE2 (always present on amd64). The last
// bytes of b are checked by one load that ends at the end of b, with the
// bytes already checked shifted out of the mask. An HTAB is valid: the
// scan goes on after it.
TEXT ·valueEnd(SB), NOSPLIT, $0-40
	MOVQ b_base+0(FP), DI
	MOVQ b_len+8(FP), BX
	MOVQ i+24(FP), SI
	CMPQ SI, BX
	JAE  none
	ADDQ DI, SI
	LEAQ (DI)(BX*1), R8
	MOVOU ctl1f<>(SB), X1
	MOVOU ctl7f<>(SB), X2
	PXOR X3, X3
	CMPQ BX, $16
	JB   short

loop:
	LEAQ 16(SI), R9
	CMPQ R9, R8
	JA   last
	MOVOU (SI), X0
	CTLMASK
	TESTL AX, AX
	JNZ  found
	MOVQ R9, SI
	JMP  loop

found:
	BSFL AX, CX
	ADDQ CX, SI
	CMPB (SI), $0x09
	JNE  done
	INCQ SI
	JMP  loop

last:
	// Fewer than 16 bytes from SI to the end of b, which has at least 16.
	CMPQ SI, R8
	JAE  none
	MOVQ R8, CX
	SUBQ SI, CX
	NEGQ CX
	ADDQ $16, CX
	LEAQ -16(R8), R10
	MOVOU (R10), X0
	CTLMASK
	SHRL CX, AX
	SHLL CX, AX
	TESTL AX, AX
	JZ   none
	BSFL AX, CX
	LEAQ (R10)(CX*1), SI
	CMPB (SI), $0x09
	JNE  done
	INCQ SI
	JMP  last

short:
	CMPQ SI, R8
	JAE  none
	MOVBLZX (SI), AX
	CMPB AL, $0x7f
	JEQ  done
	CMPB AL, $0x1f
	JHI  next
	CMPB AL, $0x09
	JNE  done

next:
	INCQ SI
	JMP  short

none:
	MOVQ BX, ret+32(FP)
	RET

done:
	SUBQ DI, SI
	MOVQ SI, ret+32(FP)
	RET

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

// func targetStop(b []byte, i int) int
//
// As valueEnd, for the bytes that stop a request-target scan.
TEXT ·targetStop(SB), NOSPLIT, $0-40
	MOVQ b_base+0(FP), DI
	MOVQ b_len+8(FP), BX
	MOVQ i+24(FP), SI
	CMPQ SI, BX
	JAE  tnone
	ADDQ DI, SI
	LEAQ (DI)(BX*1), R8
	MOVOU tgt20<>(SB), X1
	MOVOU ctl7f<>(SB), X2
	MOVOU tgt23<>(SB), X5
	MOVOU tgt25<>(SB), X6
	PXOR X3, X3
	CMPQ BX, $16
	JB   tshort

tloop:
	LEAQ 16(SI), R9
	CMPQ R9, R8
	JA   tlast
	MOVOU (SI), X0
	TGTMASK
	TESTL AX, AX
	JNZ  tfound
	MOVQ R9, SI
	JMP  tloop

tfound:
	BSFL AX, CX
	ADDQ CX, SI
	SUBQ DI, SI
	MOVQ SI, ret+32(FP)
	RET

tlast:
	CMPQ SI, R8
	JAE  tnone
	MOVQ R8, CX
	SUBQ SI, CX
	NEGQ CX
	ADDQ $16, CX
	LEAQ -16(R8), SI
	MOVOU (SI), X0
	TGTMASK
	SHRL CX, AX
	SHLL CX, AX
	TESTL AX, AX
	JNZ  tfound

tnone:
	MOVQ BX, ret+32(FP)
	RET

tshort:
	CMPQ SI, R8
	JAE  tnone
	MOVBLZX (SI), AX
	CMPB AL, $0x20
	JLS  tdone
	CMPB AL, $0x7f
	JAE  tdone
	CMPB AL, $0x23
	JEQ  tdone
	CMPB AL, $0x25
	JEQ  tdone
	INCQ SI
	JMP  tshort

tdone:
	SUBQ DI, SI
	MOVQ SI, ret+32(FP)
	RET

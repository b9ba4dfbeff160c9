//go:build amd64 && !purego

#include "go_asm.h"
#include "textflag.h"

// BYTES16(name, word) defines name<> as sixteen read-only bytes, the
// eight of word twice: a byte repeated in each lane of an XMM register.
#define BYTES16(name, word) \
	DATA name<>+0(SB)/8, $word \
	DATA name<>+8(SB)/8, $word \
	GLOBL name<>(SB), RODATA|NOPTR, $16

BYTES16(ctl7f, 0x7f7f7f7f7f7f7f7f)

BYTES16(stop40, 0x4040404040404040)

BYTES16(stopc1, 0xc1c1c1c1c1c1c1c1)

// STOPMASK sets the bits of AX for the bytes of X0 that are a CTL (HTAB
// included) or DEL, the bytes that end a field value. XOR 0x40 maps those
// to 0x3F-0x5F, adding 0xC1 to 0x00-0x20, which the saturating
// subtraction of 0x20 leaves zero. X1 holds 0x40 (stop40), X2 0xC1
// (stopc1), X3 0x20 (tgt20), X4 zero. X0 is clobbered.
#define STOPMASK \
	PXOR    X1, X0 \
	PADDB   X2, X0 \
	PSUBUSB X3, X0 \
	PCMPEQB X4, X0 \
	PMOVMSKB X0, AX

// FIND(from, next) sets R8 to the first stop byte at or after from, the
// first bit set from it in the word of fieldLines' mask that holds it
// (R11), or jumps to next for the next words (NEXTWORD).
#define FIND(from, next) \
	MOVQ from, CX \
	SUBQ 40(SP), CX \
	MOVQ CX, R11 \
	SHRQ $6, R11 \
	MOVQ 0(SP)(R11*8), AX \
	SHRQ CX, AX \
	BSFQ AX, R8 \
	JZ   next \
	ADDQ from, R8

// NEXTWORD(next, found) is the label next of FIND: R8 is the first stop
// byte in the words of the mask after R11, and the walk goes on at found,
// or at nostop when there is none.
#define NEXTWORD(next, found) \
next: \
	INCQ R11 \
	CMPQ R11, $4 \
	JAE  nostop \
	MOVQ 0(SP)(R11*8), AX \
	BSFQ AX, R8 \
	JZ   next \
	SHLQ $6, R11 \
	ADDQ R11, R8 \
	ADDQ 40(SP), R8 \
	JMP  found

BYTES16(tgt20, 0x2020202020202020)

BYTES16(tgt23, 0x2323232323232323)

BYTES16(tgt25, 0x2525252525252525)

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

// TGTCONSTS loads the constants of TGTMASK.
#define TGTCONSTS \
	MOVOU tgt20<>(SB), X1 \
	MOVOU ctl7f<>(SB), X2 \
	MOVOU tgt23<>(SB), X5 \
	MOVOU tgt25<>(SB), X6 \
	PXOR  X3, X3

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
	MOVOU stop40<>(SB), X1
	MOVOU stopc1<>(SB), X2
	MOVOU tgt20<>(SB), X3
	PXOR  X4, X4
	SCAN16(STOPMASK)
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
	TGTCONSTS
	SCAN16(TGTMASK)
	SUBQ DI, SI
	MOVQ SI, ret+32(FP)
	RET

short:
	JMP ·targetStopGeneric(SB)

none:
	MOVQ BX, ret+32(FP)
	RET

// namemask holds for n below 8 the mask of a name's n bytes in its
// first word (nameMask).
DATA namemask<>+0(SB)/8, $0
DATA namemask<>+8(SB)/8, $0xff
DATA namemask<>+16(SB)/8, $0xffff
DATA namemask<>+24(SB)/8, $0xffffff
DATA namemask<>+32(SB)/8, $0xffffffff
DATA namemask<>+40(SB)/8, $0xffffffffff
DATA namemask<>+48(SB)/8, $0xffffffffffff
DATA namemask<>+56(SB)/8, $0xffffffffffffff
GLOBL namemask<>(SB), RODATA|NOPTR, $64

DATA namehash<>+0(SB)/8, $const_nameHashMul
GLOBL namehash<>(SB), RODATA|NOPTR, $8

BYTES16(colon, 0x3a3a3a3a3a3a3a3a)


// STOPS(off) is STOPMASK for the sixteen bytes at off(SI)(R12*1).
#define STOPS(off) \
	MOVOU   off(SI)(R12*1), X0 \
	STOPMASK

// STOPS32(off, y, r) sets the bits of r for the 32 bytes at off(SI)(R12*1)
// that STOPMASK marks, by AVX2. Y5 holds 0x40, Y6 0xC1, Y7 0x20, Y8 zero;
// y is clobbered.
#define STOPS32(off, y, r) \
	VMOVDQU   off(SI)(R12*1), y \
	VPXOR     Y5, y, y \
	VPADDB    Y6, y, y \
	VPSUBUSB  Y7, y, y \
	VPCMPEQB  Y8, y, y \
	VPMOVMSKB y, r

BYTES16(plaina, 0x6161616161616161)

BYTES16(plain25, 0x1919191919191919)

BYTES16(plain0, 0x3030303030303030)

BYTES16(plain9, 0x0909090909090909)

BYTES16(plaindash, 0x2d2d2d2d2d2d2d2d)

// PLAIN(x) sets the bits of AX for the bytes of x that are letters (with
// bit 0x20 set, 'a' to 'z': minus 'a', at most 25), digits (minus '0', at
// most 9) or '-'. X3 holds 0x20, X4 zero, X6 'a', X7 25, X8 '0', X9 9,
// X10 '-'; X5 and X12 are scratch.
#define PLAIN(x) \
	MOVOU   x, X5 \
	POR     X3, X5 \
	PSUBB   X6, X5 \
	PSUBUSB X7, X5 \
	PCMPEQB X4, X5 \
	MOVOU   x, X12 \
	PSUBB   X8, X12 \
	PSUBUSB X9, X12 \
	PCMPEQB X4, X12 \
	POR     X12, X5 \
	PCMPEQB X10, x \
	POR     x, X5 \
	PMOVMSKB X5, AX

// COLONS(x) sets the bits of AX for the bytes of x that are ':' (X11).
#define COLONS(x) \
	PCMPEQB X11, x \
	PMOVMSKB x, AX

// func fieldLinesAsm(b []byte, ls *lineSpans, avx2 bool) int
//
// The walk over the lines finds a line's CR as the first bit set from
// its start in a mask of the stop bytes of lineChunk bytes of b, marked
// from the start of the first line that ends past the bytes marked
// before (remark; the last byte of b is never marked), past the HTABs
// before it (htab); its colon is searched in its first 32 bytes, 16 at a
// time (by a load that ends at the end of b when those end past it); its
// name is looked up in knownNames, and another one checked by PLAIN. A
// line of another shape that ends in CRLF gets an odd span (odd); the
// walk stops at a line without CRLF in reach, as fieldLinesGeneric does.
//
// The frame holds the mask, five words (the last one zero: a line may
// start two bytes past the bytes marked), then its start and its end, and
// the address of knownNames. Fewer than 16 bytes give no line.
TEXT ·fieldLinesAsm(SB), NOSPLIT, $64-48
	MOVQ b_base+0(FP), SI
	MOVQ b_len+8(FP), BX
	XORQ R10, R10
	CMPQ BX, $16 // a colon search may load the sixteen bytes ending at b's end
	JB   done
	MOVQ ls+24(FP), DI
	MOVOU stop40<>(SB), X1
	MOVOU stopc1<>(SB), X2
	MOVOU tgt20<>(SB), X3
	PXOR  X4, X4
	MOVOU colon<>(SB), X11
	LEAQ  ·knownNames(SB), AX
	MOVQ  AX, 56(SP)
	XORQ  DX, DX

remark:
	// Mark b[DX:R13], R13 = min(DX+lineChunk, len(b)): 64 bytes per
	// round, then 16, then the last bytes by one load that ends at R13,
	// the bits of the bytes already marked shifted out.
	MOVOU X4, 0(SP)
	MOVOU X4, 16(SP)
	MOVQ  $0, 32(SP)
	LEAQ  const_lineChunk(DX), R13
	CMPQ  R13, BX
	CMOVQGT BX, R13
	MOVQ  DX, 40(SP)
	MOVQ  R13, 48(SP)
	LEAQ  0(SP), R11
	MOVQ  DX, R12
	CMPB  avx2+32(FP), $0
	JEQ   round
	// With AVX2, 32 bytes per STOPMASK.
	VBROADCASTI128 stop40<>(SB), Y5
	VBROADCASTI128 stopc1<>(SB), Y6
	VBROADCASTI128 tgt20<>(SB), Y7
	VPXOR Y8, Y8, Y8
round32:
	LEAQ 64(R12), CX
	CMPQ CX, R13
	JA   round32done
	STOPS32(0, Y0, AX)
	STOPS32(32, Y9, R9)
	SHLQ $32, R9
	ORQ  AX, R9
	MOVQ R9, 0(R11)
	ADDQ $8, R11
	MOVQ CX, R12
	JMP  round32
round32done:
	VZEROUPPER // before the SSE2 instructions below
round:
	// Each word of the mask is built in R9 and stored once: read back
	// whole, a word stored in parts would stall the load.
	LEAQ 64(R12), CX
	CMPQ CX, R13
	JA   part
	STOPS(0)
	MOVQ AX, R9
	STOPS(16)
	SHLQ $16, AX
	ORQ  AX, R9
	STOPS(32)
	SHLQ $32, AX
	ORQ  AX, R9
	STOPS(48)
	SHLQ $48, AX
	ORQ  AX, R9
	MOVQ R9, 0(R11)
	ADDQ $8, R11
	MOVQ CX, R12
	JMP  round
part:
	// Fewer than 64 bytes left: R8 is the bit of R12 in the word.
	XORQ R9, R9
	XORQ R8, R8
block:
	LEAQ 16(R12), CX
	CMPQ CX, R13
	JA   tail
	STOPS(0)
	MOVQ R8, CX
	SHLQ CX, AX
	ORQ  AX, R9
	ADDQ $16, R8
	ADDQ $16, R12
	JMP  block
tail:
	CMPQ R12, R13
	JAE  partdone
	SUBQ R13, CX // the bytes of the sixteen ending at R13 marked already
	LEAQ -16(R13), R12
	STOPS(0)
	SHRQ CX, AX
	MOVQ R8, CX
	SHLQ CX, AX
	ORQ  AX, R9
partdone:
	MOVQ R9, 0(R11)
last:
	// The last byte of b stays unmarked: a CR there has no LF, and so a
	// stop byte found is followed by another byte.
	CMPQ R13, BX
	JNE  walk
	LEAQ -1(BX), CX
	SUBQ DX, CX
	MOVQ CX, R11
	SHRQ $6, R11
	MOVQ 0(SP)(R11*8), AX
	BTRQ CX, AX
	MOVQ AX, 0(SP)(R11*8)

walk:
	// R8: the line's first stop byte, which must be the CR of its CRLF
	// (or an HTAB: htab).
	FIND(DX, stopnext)
stopdone:
	CMPQ R8, DX
	JE   done
	CMPW (SI)(R8*1), $0x0a0d
	JNE  nocrlf

	// R9: the line's first colon, which must end a name before the CR.
	LEAQ 16(DX), AX
	CMPQ AX, BX
	JA   colontail
	MOVOU (SI)(DX*1), X0
	COLONS(X0)
	BSFL AX, R9
	JNZ  colonfound
	LEAQ 32(DX), CX
	SUBQ BX, CX
	JA   colontail2
	MOVOU 16(SI)(DX*1), X0
	COLONS(X0)
	BSFL AX, R9
	JZ   odd
colon16:
	ADDQ $16, R9
colonfound:
	ADDQ DX, R9
	CMPQ R9, R8
	JAE  odd
	CMPQ R9, DX
	JE   odd

	// R12: the value's start, after at most one SP; the value must
	// neither start nor end with SP. b[R8] is the CR: a byte may be read
	// at R12 even when the value is empty.
	LEAQ 1(R9), R12
	CMPB (SI)(R12*1), $0x20
	JNE  leading
	INCQ R12
	CMPB (SI)(R12*1), $0x20
	JE   odd
leading:
	CMPQ R12, R8
	JAE  store
	CMPB -1(SI)(R8*1), $0x20
	JE   odd

store:
	IMUL3Q $lineSpan__size, R10, R13
	MOVW DX, lineSpan_name(DI)(R13*1)
	MOVW R9, lineSpan_colon(DI)(R13*1)
	MOVW R12, lineSpan_start(DI)(R13*1)
	MOVW R8, lineSpan_end(DI)(R13*1)
	MOVB $const_notCommon, lineSpan_id(DI)(R13*1)

	// The name's id when it is a common one, as commonName finds it: its
	// words with bit 0x20 set in every byte, first (AX), mid (CX) and
	// last (R11), hashed to a slot of knownNames (DX) and compared. The
	// first word must be in b (a shorter name than 8 bytes may end it); a
	// name of 24 bytes or more fails the compare of n (R12).
	MOVQ R9, R12
	SUBQ DX, R12
	MOVQ tgt20<>(SB), R11 // bit 0x20 in every byte
	CMPQ R12, $8
	JAE  long
	LEAQ 8(DX), AX
	CMPQ AX, BX
	JA   next
	MOVQ (SI)(DX*1), AX
	ORQ  R11, AX
	LEAQ namemask<>(SB), R11
	ANDQ (R11)(R12*8), AX
	MOVQ AX, R11
	MOVQ AX, CX
	JMP  hash
long:
	MOVQ (SI)(DX*1), AX
	ORQ  R11, AX
	MOVQ -8(SI)(R9*1), CX
	ORQ  R11, CX
	CMPQ R12, $16
	JBE  mid
	MOVQ 8(SI)(DX*1), R9
	ORQ  R9, R11
	XCHGQ CX, R11
	JMP  hash
mid:
	MOVQ CX, R11
hash:
	LEAQ  (AX)(R11*1), R9
	IMULQ namehash<>(SB), R9
	SHRQ  $(64-const_nameSlotBits), R9
	IMULQ $knownName__size, R9
	ADDQ  56(SP), R9
	CMPQ  AX, knownName_first(R9)
	JNE   plain
	CMPQ  CX, knownName_mid(R9)
	JNE   plain
	CMPQ  R11, knownName_last(R9)
	JNE   plain
	CMPB  knownName_n(R9), R12B
	JNE   plain
	MOVB  knownName_id(R9), AX
	MOVB  AX, lineSpan_id(DI)(R13*1)

next:
	INCQ R10
	CMPQ R10, $const_maxSpans
	JAE  done
	LEAQ 2(R8), DX
	CMPQ DX, BX
	JB   walk

done:
	MOVQ R10, ret+40(FP)
	RET

nocrlf:
	CMPB (SI)(R8*1), $0x09
	JNE  done
htab:
	// An HTAB in the line: an odd line if the first stop byte
	// after it, not an HTAB, is the CR of a CRLF.
	LEAQ 1(R8), R9
	FIND(R9, htabnext)
htabdone:
	CMPW (SI)(R8*1), $0x0a0d
	JEQ  odd
	CMPB (SI)(R8*1), $0x09
	JEQ  htab
	JMP  done

odd:
	// A line of another shape, ended by CRLF: its span for the strict
	// rules (quickFields), and on to the next.
	IMUL3Q $lineSpan__size, R10, R13
	MOVW DX, lineSpan_name(DI)(R13*1)
	MOVW $0, lineSpan_colon(DI)(R13*1)
	MOVW $0, lineSpan_start(DI)(R13*1)
	MOVW R8, lineSpan_end(DI)(R13*1)
	MOVB $const_oddLine, lineSpan_id(DI)(R13*1)
	JMP  next

	NEXTWORD(stopnext, stopdone)
	NEXTWORD(htabnext, htabdone)

nostop:
	// No stop byte in the mask from DX: mark from DX unless the mask
	// started there (a line longer than lineChunk) or reached the end of b.
	CMPQ 48(SP), BX
	JAE  done
	CMPQ 40(SP), DX
	JEQ  done
	JMP  remark

plain:
	// Not a common name, so none that is interpreted: a token of no
	// interest when all its bytes are letters, digits or '-' (with 32
	// bytes from the line's start in b).
	LEAQ 32(DX), AX
	CMPQ AX, BX
	JA   next
	MOVOU plaina<>(SB), X6
	MOVOU plain25<>(SB), X7
	MOVOU plain0<>(SB), X8
	MOVOU plain9<>(SB), X9
	MOVOU plaindash<>(SB), X10
	MOVOU (SI)(DX*1), X0
	PLAIN(X0)
	NOTL AX
	MOVQ R12, CX
	CMPQ R12, $16
	JBE  plainlast
	TESTW AX, AX // a name of 17 to 31 bytes: its first 16 all plain
	JNZ  next
	MOVOU 16(SI)(DX*1), X0
	PLAIN(X0)
	NOTL AX
	SUBQ $16, CX
plainlast:
	MOVL $1, R9 // the name's last CX bytes (1 to 16) in AX
	SHLL CX, R9
	DECL R9
	TESTL R9, AX
	JNZ  next
	MOVB $const_fieldOther, lineSpan_id(DI)(R13*1)
	JMP  next

colontail:
	// Fewer than 16 bytes from the line's start: the 16 that end b, the
	// bits of those before the line shifted out.
	MOVOU -16(SI)(BX*1), X0
	COLONS(X0)
	LEAQ 16(DX), CX
	SUBQ BX, CX
	SHRL CX, AX
	BSFL AX, R9
	JZ   odd
	JMP  colonfound

colontail2:
	// The second 16 bytes of the line end past b: the 16 that end b,
	// shifted by CX, the bytes past b.
	MOVOU -16(SI)(BX*1), X0
	COLONS(X0)
	SHRL CX, AX
	BSFL AX, R9
	JZ   odd
	JMP  colon16

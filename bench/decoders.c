/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * decoders BINARY...: x86_64 decoders timed over each binary's executable
 * sections, the way mycl walks them (one instruction after another, a byte
 * skipped where nothing decodes), best of three:
 *   lengths   x86len (capstone, details off, where it knows no form) | Zydis MINIMAL
 *   operands  x86quick (capstone, details on, for the rest)          | capstone alone |
 *             Zydis's instruction and operands (no text)
 * Printed as ns per instruction and as ratios to mycl's path.  Zydis 4 (Debian's
 * libzydis-dev); the numbers: bench/RESULTS.md, the decision: doc/share.md.
 */
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <capstone/capstone.h>
#include <Zydis/Zydis.h>
#include "x86len.h"
#include "x86quick.h"

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

struct code {
	uint8_t *bytes;
	size_t len;
	uint64_t addr;
};

/* The executable sections' bytes, one after another (each walked from its start). */
static size_t load(const char *path, struct code *out, size_t max)
{
	int fd = open(path, O_RDONLY);
	Elf *e;
	Elf_Scn *scn = NULL;
	size_t n = 0;

	elf_version(EV_CURRENT);
	if (fd < 0 || !(e = elf_begin(fd, ELF_C_READ, NULL))) {
		fprintf(stderr, "decoders: %s: cannot read\n", path);
		exit(1);
	}
	while ((scn = elf_nextscn(e, scn)) && n < max) {
		GElf_Shdr sh;
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_EXECINSTR) || !(d = elf_getdata(scn, NULL)) || !d->d_size)
			continue;
		out[n].bytes = malloc(d->d_size);
		memcpy(out[n].bytes, d->d_buf, d->d_size);
		out[n].len = d->d_size;
		out[n++].addr = sh.sh_addr;
	}
	elf_end(e);
	close(fd);
	return n;
}

typedef size_t (*walk_fn)(const struct code *c, void *ctx);

struct ctx {
	csh cs, cs_detail;
	cs_insn *ci, *ci_detail;
	ZydisDecoder zmin, zfull;
};

static size_t cs_len(struct ctx *x, const uint8_t *p, size_t left, uint64_t pc, bool detail)
{
	const uint8_t *q = p;
	size_t l = left;

	return cs_disasm_iter(detail ? x->cs_detail : x->cs, &q, &l, &pc,
			      detail ? x->ci_detail : x->ci) ? (size_t)(q - p) : 0;
}

static size_t walk_x86len(const struct code *c, void *v)
{
	struct ctx *x = v;
	size_t n = 0;

	for (size_t off = 0; off < c->len; n++) {
		size_t l = x86_64_insn_len(c->bytes + off, c->len - off);

		if (!l)
			l = cs_len(x, c->bytes + off, c->len - off, c->addr + off, false);
		off += l ? l : 1;
	}
	return n;
}

static size_t walk_zydis_min(const struct code *c, void *v)
{
	struct ctx *x = v;
	ZydisDecodedInstruction in;
	size_t n = 0;

	for (size_t off = 0; off < c->len; n++) {
		ZyanStatus st = ZydisDecoderDecodeInstruction(&x->zmin, NULL, c->bytes + off,
							      c->len - off, &in);

		off += ZYAN_SUCCESS(st) ? in.length : 1;
	}
	return n;
}

static size_t walk_quick(const struct code *c, void *v)
{
	struct ctx *x = v;
	cs_insn qi;
	cs_detail qd;
	size_t n = 0;

	for (size_t off = 0; off < c->len; n++) {
		size_t l = x86_quick(c->bytes + off, c->len - off, c->addr + off, &qi, &qd);

		if (!l)
			l = cs_len(x, c->bytes + off, c->len - off, c->addr + off, true);
		off += l ? l : 1;
	}
	return n;
}

static size_t walk_capstone(const struct code *c, void *v)
{
	struct ctx *x = v;
	size_t n = 0;

	for (size_t off = 0; off < c->len; n++) {
		size_t l = cs_len(x, c->bytes + off, c->len - off, c->addr + off, true);

		off += l ? l : 1;
	}
	return n;
}

static size_t walk_zydis_full(const struct code *c, void *v)
{
	struct ctx *x = v;
	ZydisDecodedInstruction in;
	ZydisDecodedOperand ops[ZYDIS_MAX_OPERAND_COUNT];
	size_t n = 0;

	for (size_t off = 0; off < c->len; n++) {
		ZyanStatus st = ZydisDecoderDecodeFull(&x->zfull, c->bytes + off, c->len - off, &in,
						       ops);

		off += ZYAN_SUCCESS(st) ? in.length : 1;
	}
	return n;
}

/* Best of three walks of every section: seconds, and the instructions walked. */
static double best(walk_fn f, const struct code *c, size_t nc, void *ctx, size_t *insns)
{
	double b = 1e9;

	for (int r = 0; r < 3; r++) {
		double t = now();

		*insns = 0;
		for (size_t i = 0; i < nc; i++)
			*insns += f(&c[i], ctx);
		t = now() - t;
		if (t < b)
			b = t;
	}
	return b;
}

int main(int argc, char **argv)
{
	static const struct { const char *name; walk_fn f; } walks[] = {
		{ "x86len+capstone", walk_x86len }, { "zydis-minimal", walk_zydis_min },
		{ "x86quick+capstone", walk_quick }, { "capstone", walk_capstone },
		{ "zydis-full", walk_zydis_full },
	};
	struct ctx x;

	if (argc < 2) {
		fprintf(stderr, "usage: decoders BINARY...\n");
		return 1;
	}
	cs_open(CS_ARCH_X86, CS_MODE_64, &x.cs);
	cs_open(CS_ARCH_X86, CS_MODE_64, &x.cs_detail);
	cs_option(x.cs_detail, CS_OPT_SYNTAX, CS_OPT_SYNTAX_ATT);
	cs_option(x.cs_detail, CS_OPT_DETAIL, CS_OPT_ON);
	x.ci = cs_malloc(x.cs);
	x.ci_detail = cs_malloc(x.cs_detail);
	ZydisDecoderInit(&x.zmin, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
	ZydisDecoderEnableMode(&x.zmin, ZYDIS_DECODER_MODE_MINIMAL, ZYAN_TRUE);
	ZydisDecoderInit(&x.zfull, ZYDIS_MACHINE_MODE_LONG_64, ZYDIS_STACK_WIDTH_64);
	printf("%-28s %10s %18s %14s %18s %10s %12s\n", "binary (MB of code)", "insns",
	       "x86len+capstone", "zydis-minimal", "x86quick+capstone", "capstone", "zydis-full");
	for (int a = 1; a < argc; a++) {
		struct code c[64];
		size_t nc = load(argv[a], c, 64), insns = 0, bytes = 0;
		double t[5];
		const char *base = strrchr(argv[a], '/') ? strrchr(argv[a], '/') + 1 : argv[a];
		char label[64];

		for (size_t i = 0; i < nc; i++)
			bytes += c[i].len;
		for (size_t w = 0; w < 5; w++)
			t[w] = best(walks[w].f, c, nc, &x, &insns) * 1e9 / (double)insns;
		snprintf(label, sizeof(label), "%.20s (%.1f)", base, (double)bytes / 1e6);
		printf("%-28s %10zu %9.1f ns     %6.1f ns %4.2fx %9.1f ns     %6.1f ns %4.2fx %4.2fx\n",
		       label, insns, t[0], t[1], t[1] / t[0], t[2], t[3], t[3] / t[2], t[4] / t[2]);
		for (size_t i = 0; i < nc; i++)
			free(c[i].bytes);
	}
	printf("(ns per instruction, best of 3; ratios: zydis-minimal to x86len+capstone, "
	       "capstone and zydis-full to x86quick+capstone)\n");
	return 0;
}

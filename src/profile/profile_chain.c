/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Call paths: from a sample's call chain into the call tree; inclusive rows. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "profile_state.h"
#include "inline.h"
#include "unwind.h"
#include "elfimage.h"

/* Call-chain context markers (PERF_CONTEXT_*), as u64. */
#define CTX_HV			((uint64_t)-32)
#define CTX_KERNEL		((uint64_t)-128)
#define CTX_USER		((uint64_t)-512)
#define CTX_GUEST		((uint64_t)-2048)
#define CTX_GUEST_KERNEL	((uint64_t)-2176)
#define CTX_GUEST_USER		((uint64_t)-2560)
#define CTX_MAX			CTX_MAX_ID
#define CTX_UNWIND_STOP		CTX_STOP_ID
/* The stop after the unwinder's (enum unwind_end): a chain cut at max_stack frames. */
#define STOP_MAX_STACK		5
#define MAX_UNWIND		127
#define BRANCH_CALL_STACK	(1ULL << 11)	/* PERF_SAMPLE_BRANCH_CALL_STACK */

static int grow_scratch(struct mycl_profile *p, size_t n)
{
	return ARRAY_GROW(p->frames, p->frames_cap, n) ? -ENOMEM : 0;
}

static enum mycl_cpumode marker_mode(uint64_t v, enum mycl_cpumode cur)
{
	switch (v) {
	case CTX_KERNEL: return MYCL_CPUMODE_KERNEL;
	case CTX_USER: return MYCL_CPUMODE_USER;
	case CTX_HV: return MYCL_CPUMODE_HYPERVISOR;
	case CTX_GUEST_KERNEL: return MYCL_CPUMODE_GUEST_KERNEL;
	case CTX_GUEST_USER: return MYCL_CPUMODE_GUEST_USER;
	default: return cur;
	}
}

/*
 * The function a direct call ending just before RET calls (RET a binary
 * address of D): x86_64 "call rel32", aarch64 "bl".  NULL when the
 * instruction before RET is no direct call, or calls through the PLT.
 */
static const struct sym *called_before(struct dso *d, uint64_t ret)
{
	struct elf_image *img = d && !d->kernel && !d->identity ? dso_image(d) : NULL;
	const uint8_t *b;
	const struct sym *f;
	uint64_t target;

	if (!img || ret < 8)
		return NULL;
	if (elf_image_machine(img) == 62 /* EM_X86_64 */) {
		int32_t rel;

		if (!(b = elf_image_code(img, ret - 5, 5)) || b[0] != 0xe8)
			return NULL;
		memcpy(&rel, b + 1, 4);
		target = ret + (uint64_t)(int64_t)rel;
	} else if (elf_image_machine(img) == 183 /* EM_AARCH64 */ && !elf_image_big_endian(img)) {
		uint32_t w;
		int32_t imm;

		if (!(b = elf_image_code(img, ret - 4, 4)))
			return NULL;
		memcpy(&w, b, 4);
		if ((w >> 26) != 0x25)
			return NULL;
		imm = (int32_t)(w << 6) >> 6;
		target = ret - 4 + (uint64_t)((int64_t)imm * 4);
	} else {
		return NULL;
	}
	f = symtab_find(&d->syms, target);
	if (!f || f->start != target || !f->name || strstr(f->name, "@plt"))
		return NULL;
	return f;
}

/*
 * A return address just after "call X" where X is not the function of the
 * frame below it: X's frame is not in the chain.  Frame-pointer chains lose
 * the caller of a function that sets up no frame (or is sampled before it
 * does), and every chain loses a function that tail-called onwards.  X is
 * put back as a frame of its own, marked as such.  BELOW is the frame under
 * RET (resolved; the sampled one or a return address).  ADJUSTED: RET is one
 * byte before the return address, as unwound frames are (inside the call).
 * X's symbol, or NULL.
 */
static const struct sym *lost_fn(const struct resolved *below, const struct resolved *ret,
				 bool adjusted)
{
	const struct sym *f;
	size_t n;

	if (!below->sym || !below->dso || !ret->dso || !ret->sym)
		return NULL;
	f = called_before(ret->dso, dso_offset_to_vaddr(ret->dso, ret->addr) + adjusted);
	if (!f || (ret->dso == below->dso && f->start == below->sym->start))
		return NULL;
	/* foo calling into foo.cold, its own split-off part: no lost frame. */
	n = strlen(f->name);
	if (below->sym->name && !strncmp(below->sym->name, f->name, n) && below->sym->name[n] == '.')
		return NULL;
	return f;
}

/* The frame lost_fn() finds, named as put back ("NAME [from call site]"), its start in *START. */
static const char *lost_caller(struct mycl_profile *p, const struct resolved *below,
			       const struct resolved *ret, bool adjusted, uint64_t *start)
{
	const struct sym *f = lost_fn(below, ret, adjusted);
	char buf[1024];

	if (!f)
		return NULL;
	*start = f->start;
	snprintf(buf, sizeof(buf), "%s " MYCL_FROM_CALL_SITE, f->name);
	return machine_intern(p->m, buf);
}

/*
 * Resolves the frames of IDS (leaf first, with context markers) into
 * p->frames; *NFRAMES gets how many.  REPAIR: frames a call instruction
 * shows missing are put back (lost_caller).  UPTO: the frames of IDS[UPTO]
 * and outwards are known (a cached suffix), so only those inside it are
 * made, and the frame lost between IDS[UPTO - 1] and IDS[UPTO]; N for all.
 * POS[i]: where the frames of IDS[i] itself start (after a lost caller's).
 */
static int resolve_frames(struct mycl_profile *p, const struct mycl_sample *s, const uint64_t *ids,
			  size_t n, size_t upto, bool unwound, bool repair, uint32_t *pos,
			  size_t *nframes)
{
	enum mycl_cpumode mode = s->cpumode;
	bool leaf_pending = true;
	size_t out = 0, nuser = 0;
	struct resolved below = { 0 };

	for (size_t i = 0; i < n; i++) {
		struct resolved r;
		int err;

		if (ids[i] >= CTX_UNWIND_STOP && ids[i] < CTX_UNWIND_STOP + 8) {
			/* A frame that says the stack goes on but could not be unwound. */
			static const char *const why[] = {
				"[unwinding stopped]", "[unwinding stopped: no unwind info]",
				"[unwinding stopped: end of stack copy]", "[not unwound]",
				"[unwinding stopped: too deep]", MYCL_MAX_STACK_CUT,
			};
			size_t k = (size_t)(ids[i] - CTX_UNWIND_STOP);

			p->frames[out] = (struct ct_frame){
				.sym = why[k < sizeof(why) / sizeof(why[0]) ? k : 0], .level = '.' };
			out++;
			continue;
		}
		if (ids[i] >= CTX_MAX) {
			mode = marker_mode(ids[i], mode);
			continue;
		}
		err = machine_resolve(p->m, s->pid, s->tid, ids[i], mode, &r);
		if (err)
			return err;
		if (repair && mode == MYCL_CPUMODE_USER) {
			uint64_t start = 0;
			const char *lost = nuser++ ? lost_caller(p, &below, &r, unwound, &start) : NULL;

			below = r;
			if (lost) {
				if (ARRAY_GROW(p->frames, p->frames_cap, out + (n - i) + 2))
					return -ENOMEM;
				p->frames[out++] = (struct ct_frame){ .dso = r.dso, .sym = lost,
								      .addr = start, .level = '.',
								      .repaired = true };
			}
		}
		if (i == upto)
			break;		/* the rest is the suffix's */
		pos[i] = (uint32_t)out;
		if (unwound && p->inlines && r.sym && r.dso && !r.dso->kernel && !r.dso->identity) {
			/* Functions inlined here come first: they are "called" by r.sym. */
			const struct inline_names in = { machine_intern_ctx, p->m };
			const char *names[64];	/* (Rust's iterator chains nest a dozen deep) */
			bool replaces;
			size_t k;

			err = inline_frames(&in, r.dso, dso_offset_to_vaddr(r.dso, r.addr),
					    r.sym->name, names, ARRAY_SIZE(names), &k, &replaces);
			if (err)
				return err;
			if (ARRAY_GROW(p->frames, p->frames_cap, out + k + (n - i) + 1))
				return -ENOMEM;
			for (size_t j = 0; j < k; j++)
				p->frames[out++] = (struct ct_frame){ .dso = r.dso, .sym = names[j],
								      .level = r.level, .inl = true };
			/*
			 * A caller frame whose source name differs from its symbol
			 * (foo.part.0 is "foo") is that name alone, as perf shows it;
			 * the sampled frame keeps its symbol: self time is its.
			 */
			if (replaces && out > 0 && !leaf_pending)
				continue;
		}
		leaf_pending = false;
		p->frames[out].inl = false;
		p->frames[out].repaired = false;
		p->frames[out].dso = r.dso;
		p->frames[out].level = r.level;
		p->frames[out].sym = r.sym ? r.sym->name : NULL;
		p->frames[out].addr = r.sym ? r.sym->start : r.addr;
		if (!r.sym && p->tree.nr >= CT_NODE_BUDGET) {
			/*
			 * Memory bound: past the budget an unresolved address joins its
			 * binary's one "[unresolved]" frame (a system-wide recording of
			 * stripped programs makes a node of every address otherwise).
			 */
			p->frames[out].addr = MYCL_CG_ADDR_MERGED;
		}
		out++;
	}
	*nframes = out;
	return 0;
}

/*
 * A --call-graph dwarf sample: the kernel part of its recorded chain, then
 * the user stack unwound with DWARF, then a stop marker when the unwinder
 * could not reach the outermost frame.
 */
static int dwarf_chain(struct mycl_profile *p, const struct mycl_sample *s, const uint64_t **ids,
		       size_t *n, bool *unwound)
{
	size_t k = 0, got = 0;
	enum unwind_end end;
	int err;

	if (!p->unwinder) {
		p->unwinder = unwinder_new(p->m, mycl_perf_data__info(p->pd)->arch);
		if (!p->unwinder)
			return -ENOMEM;
	}
	if (ARRAY_GROW(p->ubuf, p->ubuf_cap, s->callchain_nr + MAX_UNWIND + 3))
		return -ENOMEM;
	for (size_t i = 0; i < s->callchain_nr && s->callchain[i] != CTX_USER; i++)
		p->ubuf[k++] = s->callchain[i];
	p->ubuf[k++] = CTX_USER;
	err = unwinder_unwind(p->unwinder, s, p->ubuf + k, MAX_UNWIND, &got, &end);
	if (err)
		return err;
	if (!got) {
		/* Not unwound at all: keep what was recorded. */
		if (s->callchain_nr) {
			*ids = s->callchain;
			*n = s->callchain_nr;
		}
		return 0;
	}
	k += got;
	p->nr_stack_samples++;
	p->nr_stack_end += end == UNWIND_STACK_END;
	if (s->user_stack_size > p->stack_copy_size)
		p->stack_copy_size = s->user_stack_size;
	if (end != UNWIND_COMPLETE)
		p->ubuf[k++] = CTX_UNWIND_STOP + (uint64_t)end;
	p->nr_unwound++;
	p->nr_unwind_stopped += end != UNWIND_COMPLETE;
	*unwound = true;
	*ids = p->ubuf;
	*n = k;
	return 0;
}

/*
 * --call-graph lbr: the kernel part of the recorded chain, then the user
 * stack from the LBR call stack, as perf merges it: the sampled ip (for a
 * user-mode sample), then each entry's "from", the call sites, innermost
 * first.
 */
static int lbr_chain(struct mycl_profile *p, const struct mycl_sample *s, const uint64_t **ids,
		     size_t *n)
{
	size_t k = 0;

	if (ARRAY_GROW(p->ubuf, p->ubuf_cap, s->callchain_nr + s->branch_nr + 3))
		return -ENOMEM;
	for (size_t i = 0; i < s->callchain_nr && s->callchain[i] != CTX_USER; i++)
		p->ubuf[k++] = s->callchain[i];
	p->ubuf[k++] = CTX_USER;
	if (s->cpumode == MYCL_CPUMODE_USER)
		p->ubuf[k++] = s->ip;
	for (uint64_t i = 0; i < s->branch_nr; i++)
		if (s->branches[i].from)
			p->ubuf[k++] = s->branches[i].from;
	*ids = p->ubuf;
	*n = k;
	return 0;
}

/*
 * perf report's --max-stack: the first MAX frames of the chain (context
 * markers are no frames), then a frame that says the rest is cut.
 * A recorded chain of thousands of frames (a raised perf_event_max_stack, a
 * damaged file) would otherwise make every --children row's caller tree as
 * deep: its cost the square of the depth.
 */
static int cap_chain(struct mycl_profile *p, const uint64_t **ids, size_t *n, size_t max)
{
	size_t frames = 0, i;

	for (i = 0; i < *n; i++) {
		uint64_t id = (*ids)[i];

		if (id >= CTX_MAX && !(id >= CTX_UNWIND_STOP && id < CTX_UNWIND_STOP + 8))
			continue;
		if (++frames > max)
			break;
	}
	if (i == *n)
		return 0;
	if (*ids != p->ubuf) {
		if (ARRAY_GROW(p->ubuf, p->ubuf_cap, i + 1))
			return -ENOMEM;
		memcpy(p->ubuf, *ids, i * sizeof(**ids));
	}
	p->ubuf[i] = CTX_UNWIND_STOP + STOP_MAX_STACK;
	*ids = p->ubuf;
	*n = i + 1;
	p->nr_max_stack_cut++;
	return 0;
}

/* One step of a suffix's hash lanes: they take the chain from its outermost id in. */
static inline void lanes_add(uint64_t *a, uint64_t *b, uint64_t id)
{
	*a = (*a ^ id) * 0xff51afd7ed558ccdULL;
	*a ^= *a >> 32;
	*b = (*b + id) * 0xc4ceb9fe1a85ec53ULL;
	*b ^= *b >> 29;
}

static inline uint64_t fmix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0x94d049bb133111ebULL;
	x ^= x >> 31;
	return x;
}

/* Per index of a chain: how it may be cached (chain_keys). */
#define SUFFIX_LEAF	0x100		/* the whole chain, its leaf's node */
#define SUFFIX_OK	0x200		/* a suffix whose frames do not depend on what is inside */

/* The row key of a tree's root (no binary, no symbol): what the root's index stands for. */
static uint64_t root_seed(const struct hent *rk)
{
	uint64_t x = fmix((uint64_t)(uint32_t)rk->ev * 0x9E3779B97F4A7C15ULL ^ (uintptr_t)rk->comm);

	x = fmix(x ^ ((uint64_t)(uint32_t)rk->pid << 32 | (uint32_t)rk->tid));
	return fmix(x ^ (uint64_t)rk->cpu << 8 ^ (uint8_t)rk->level);
}

/*
 * What the keys of the chain IDS[N] are made from: p->ckeys[0] the whole
 * chain's; p->ckeys[i] for each i whose suffix IDS[i..N) resolves to the same
 * frames whatever comes before it (tag 0 for the others).  That holds for an
 * address that is not the chain's first (the leaf's inlined names are shown
 * apart), in user mode (lost callers are put back from the user frame below,
 * which for the suffix's frames is inside it), or with no user frame before
 * it; the mode it starts in, the root, the address space's version and how
 * the chain was made are in the key.  *FIRST: the first address's index.
 */
static void chain_keys(struct mycl_profile *p, const struct mycl_sample *s, const uint64_t *ids,
		       size_t n, const struct hent *rk, uint64_t ver, bool unwound, bool repair,
		       size_t *first)
{
	enum mycl_cpumode mode = s->cpumode;
	struct chain_lanes *l = p->ckeys;
	uint64_t a, b, seed = root_seed(rk);
	bool user_before = false;
	size_t f = n;

	/* Forward: each index's mode and whether its suffix may be cached. */
	for (size_t i = 0; i < n; i++) {
		l[i].tag = 0;
		if (ids[i] >= CTX_UNWIND_STOP && ids[i] < CTX_UNWIND_STOP + 8)
			continue;
		if (ids[i] >= CTX_MAX) {
			mode = marker_mode(ids[i], mode);
			continue;
		}
		if (f == n)
			f = i;
		else if (mode == MYCL_CPUMODE_USER || !user_before)
			l[i].tag = SUFFIX_OK | (uint32_t)mode;
		user_before |= mode == MYCL_CPUMODE_USER;
	}
	l[0].tag |= SUFFIX_LEAF | (uint32_t)s->cpumode;
	*first = f;
	/* Backward: the lanes take in the outermost id first. */
	a = fmix(seed ^ ver) ^ (unwound ? 0x5bd1e995 : 0) ^ (repair ? 0x27d4eb2f165667c5ULL : 0);
	b = fmix(ver * 0xc2b2ae3d27d4eb4fULL + seed) ^ (unwound ? 0xcc9e2d51 : 0) ^
	    (repair ? 0x85ebca77c2b2ae63ULL : 0);
	for (size_t i = n; i-- > 0;) {
		lanes_add(&a, &b, ids[i]);
		l[i].a = a;
		l[i].b = b + n - i;
	}
}

/* The key of the suffix at I (its tag not 0), finished only when asked: most samples ask one. */
static struct chain_key key_at(const struct mycl_profile *p, size_t i)
{
	const struct chain_lanes *l = &p->ckeys[i];

	return (struct chain_key){ fmix(l->a ^ (uint64_t)l->tag << 40) | 1,
				   (uint32_t)(fmix(l->b + ((uint64_t)l->tag << 20)) >> 32) };
}

static uint32_t cached(const struct mycl_profile *p, size_t i)
{
	struct chain_key k = key_at(p, i);

	return chaincache_get(&p->chains, &k);
}

/*
 * The innermost index of IDS (after FIRST) whose suffix is cached, and its
 * node; N when none is.  Suffixes are cached from the outermost in (a chain
 * walked caches every suffix inside the one it found), so that a suffix is
 * cached says its outer ones are: the first one inside is tried, then the
 * outermost, then halves between.
 */
static size_t known_suffix(struct mycl_profile *p, size_t first, size_t n, uint32_t *node)
{
	size_t lo = first + 1, hi = n, found = n;
	uint32_t v;

	while (lo < n && !p->ckeys[lo].tag)
		lo++;
	if (lo >= n)
		return n;
	if ((v = cached(p, lo)) != UINT32_MAX) {
		*node = v;
		return lo;
	}
	/* Invariant: lo is not cached; found, when below n, is. */
	while (hi > lo + 1) {
		size_t mid = lo + (hi - lo) / 2, m = mid;

		while (m < hi && !p->ckeys[m].tag)
			m++;
		if (m == hi) {
			hi = mid;	/* nothing to try in [mid, hi) */
			continue;
		}
		if ((v = cached(p, m)) != UINT32_MAX) {
			*node = v;
			found = hi = m;
		} else {
			lo = m;
		}
	}
	return found;
}

static int cache_put(struct mycl_profile *p, size_t i, uint32_t node)
{
	struct chain_key k = key_at(p, i);

	return p->no_chain_cache ? 0 : chaincache_put(&p->chains, &k, node);
}

/* Adds the place VADDR of D to the sample's sites. */
static int add_site(struct mycl_profile *p, const struct mycl_sample *s, struct dso *d,
		    uint64_t vaddr)
{
	struct hent k = { .ev = s->event->idx, .dso = d, .addr = vaddr };

	return hist_add(&p->sites, &k, s->period, 1, NULL);
}

/*
 * The places the user-mode frames of IDS pass in the binaries: the first
 * the sampled instruction, the others the calls their return addresses
 * come back from (UNWOUND: the addresses are inside the calls already); a
 * frame the chain lost (lost_caller) by its function's start, where in it
 * not known.  A recursion's place once.
 */
static int chain_sites(struct mycl_profile *p, const struct mycl_sample *s, const uint64_t *ids,
		       size_t n, bool unwound)
{
	enum mycl_cpumode mode = s->cpumode;
	struct resolved below = { 0 };
	bool first = true;

	for (size_t i = 0; i < n; i++) {
		struct resolved r;
		const struct sym *lost;
		bool again = false;
		int err;

		if (ids[i] >= CTX_MAX) {
			mode = marker_mode(ids[i], mode);
			continue;
		}
		if (mode != MYCL_CPUMODE_USER)
			continue;
		err = machine_resolve(p->m, s->pid, s->tid, first || unwound ? ids[i] : ids[i] - 1,
				      mode, &r);
		if (err)
			return err;
		if (!first && p->fp_repair && (lost = lost_fn(&below, &r, true)) &&
		    (err = add_site(p, s, r.dso, lost->start)))
			return err;
		first = false;
		below = r;
		if (!r.dso || r.dso->kernel || r.dso->identity)
			continue;
		for (size_t j = 0; j < i && !again; j++)
			again = ids[j] == ids[i];
		if (!again && (err = add_site(p, s, r.dso, dso_offset_to_vaddr(r.dso, r.addr))))
			return err;
	}
	return 0;
}

int profile_add_chain(struct mycl_profile *p, const struct mycl_sample *s, const struct hent *rk,
		      uint32_t *leaf)
{
	const uint64_t *ids = s->callchain;
	size_t n = s->callchain_nr, nframes, first, upto, next;
	uint32_t rk_idx, node;
	uint64_t ver = machine_chain_version(p->m, s->pid, s->tid);
	uint64_t *single = p->single;
	bool unwound = false, repair;
	int err;

	if (s->user_regs_abi && s->user_stack_size) {
		err = dwarf_chain(p, s, &ids, &n, &unwound);
		if (err)
			return err;
	} else if (s->branch_nr && (s->event->branch_sample_type & BRANCH_CALL_STACK)) {
		err = lbr_chain(p, s, &ids, &n);
		if (err)
			return err;
	}
	/* (a DWARF-unwound chain: its recorded kernel part, then at most MAX_UNWIND user frames) */
	if (ids && n > p->max_stack) {
		err = cap_chain(p, &ids, &n, unwound ? p->max_stack + MAX_UNWIND : p->max_stack);
		if (err)
			return err;
	}
	if (!ids || !n) {
		/* No chain recorded: the path is the sampled function alone. */
		single[0] = s->cpumode == MYCL_CPUMODE_KERNEL ? CTX_KERNEL : CTX_USER;
		single[1] = s->ip;
		ids = single;
		n = 2;
	}
	if (p->call_sites && (err = chain_sites(p, s, ids, n, unwound)))
		return err;
	p->cur_ids = ids;
	p->cur_n = n;
	p->cur_unwound = unwound;
	repair = ids != p->ubuf || unwound ? p->fp_repair : false;
	if (ARRAY_GROW(p->ckeys, p->ckeys_cap, n) || ARRAY_GROW(p->cpos, p->cpos_cap, n))
		return -ENOMEM;
	/*
	 * Past the tree's budget unresolved frames are merged as they are made,
	 * which nodes cached before would not show: the cache starts again
	 * then (the tree is what it would be without a cache).
	 */
	if (p->tree.nr >= CT_NODE_BUDGET && !p->chains.past_budget) {
		chaincache_clear(&p->chains);
		p->chains.past_budget = true;
	}
	chain_keys(p, s, ids, n, rk, ver, unwound, repair, &first);
	node = p->no_chain_cache ? UINT32_MAX : cached(p, 0);
	if (node != UINT32_MAX) {
		calltree_hit(&p->tree, node, s->period);
		*leaf = node;
		return 0;
	}
	upto = p->no_chain_cache ? n : known_suffix(p, first, n, &node);
	if (upto == n) {
		/* The root's row index: only a chain walked from the root needs it. */
		err = hist_add(&p->roots, rk, 0, 0, &rk_idx);
		if (!err)
			err = calltree_root(&p->tree, rk_idx, &node);
		if (err)
			return err;
	}
	err = grow_scratch(p, n);
	if (!err)
		err = resolve_frames(p, s, ids, n, upto, unwound, repair, p->cpos, &nframes);
	if (err)
		return err;
	/* Walked from the known suffix in; each suffix inside it cached on the way. */
	next = upto;
	for (size_t i = nframes;; i--) {
		/* Node is where the frames from i out lead: the suffixes starting there. */
		while (next > first + 1 && (!p->ckeys[next - 1].tag || p->cpos[next - 1] == i)) {
			if (p->ckeys[next - 1].tag && (err = cache_put(p, next - 1, node)))
				return err;
			next--;
		}
		if (!i)
			break;
		err = calltree_child(&p->tree, node, &p->frames[i - 1], &node);
		if (err < 0)
			return err;
		if (err > 0)
			break;		/* the tree is full: the path ends here */
	}
	calltree_hit(&p->tree, node, s->period);
	*leaf = node;
	return cache_put(p, 0, node);
}

/*
 * The samples whose path went through the tree's bounds: unresolved frames
 * merged, or a path cut.  Counted from the tree, as many whatever the chain
 * cache saved resolving.
 */
int profile_bound_counts(struct mycl_profile *p)
{
	const struct calltree *t = &p->tree;
	uint8_t *mark;

	p->nr_merged_samples = p->nr_cut_samples = 0;
	if (t->nr < CT_NODE_BUDGET)
		return 0;
	mark = malloc(t->nr);
	if (!mark)
		return -ENOMEM;
	/* A node is made after its parent. */
	for (size_t i = 0; i < t->nr; i++) {
		const struct ct_node *nd = &t->nodes[i];

		mark[i] = nd->parent == CT_NONE ? 0 : mark[nd->parent];
		if (nd->parent != CT_NONE && !nd->f.sym && nd->f.addr == MYCL_CG_ADDR_MERGED)
			mark[i] |= 1;
		if (nd->f.sym == CT_CUT_NAME)
			mark[i] |= 2;
		if (mark[i] & 1)
			p->nr_merged_samples += nd->self_samples;
		if (mark[i] & 2)
			p->nr_cut_samples += nd->self_samples;
	}
	free(mark);
	return 0;
}

/*
 * Inclusive rows: each path's samples count once for every distinct row its
 * frames fall in (a recursive function is not counted twice), as perf's
 * children mode counts them.
 */
int profile_children(struct mycl_profile *p)
{
	uint32_t *stamp = NULL;
	size_t stamp_cap = 0;
	int err = 0;

	calltree_finish(&p->tree);
	for (size_t i = 0; i < p->tree.nr && !err; i++) {
		const struct ct_node *leaf = &p->tree.nodes[i];
		const struct hent *rk;

		if (!leaf->self_samples || leaf->parent == CT_NONE)
			continue;
		rk = &p->roots.ents[leaf->key];
		for (uint32_t a = (uint32_t)i; p->tree.nodes[a].parent != CT_NONE;
		     a = p->tree.nodes[a].parent) {
			struct hent k;
			uint32_t idx;

			profile_frame_key(p, rk, &p->tree.nodes[a].f, &k);
			err = hist_add(&p->incl, &k, 0, 0, &idx);
			if (err)
				break;
			if (idx >= stamp_cap) {
				size_t ncap = stamp_cap ? stamp_cap * 2 : 1024;
				uint32_t *ns;

				while (ncap <= idx)
					ncap *= 2;
				ns = realloc(stamp, ncap * sizeof(*ns));
				if (!ns) {
					err = -ENOMEM;
					break;
				}
				memset(ns + stamp_cap, 0xff, (ncap - stamp_cap) * sizeof(*ns));
				stamp = ns;
				stamp_cap = ncap;
			}
			if (stamp[idx] == i)
				continue;
			stamp[idx] = (uint32_t)i;
			p->incl.ents[idx].period += leaf->self_period;
			p->incl.ents[idx].samples += leaf->self_samples;
		}
	}
	free(stamp);
	return err;
}

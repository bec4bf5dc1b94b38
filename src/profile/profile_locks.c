/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Lock and spin samples, credited to their lock sites. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "mycl/locks.h"
#include "lockrules.h"
#include "profile_state.h"
#include "apinames.h"
#include "lockcode.h"
#include "inline.h"
#include "elfimage.h"
#include <inttypes.h>

#define INLINE_SPIN "(inlined spin loop)"

struct site_aux {
	const char *object;		/* the lock object: a global, from the call or the atomic */
	const char *object_from;	/* how it was found */
	const char *seed;
	bool cut;			/* primitives up to the end of the stack: site unknown */
	uint64_t gap_period;		/* reached through frames the chain lost */
	bool by_word;			/* OBJECT from the futex word the thread was on */
};

/* Answers remembered by key (a pointer and a number). */
struct memo_ent {
	const void *k1;
	uint64_t k2;
	const char *name;
	int verdict;
};

struct memo {
	struct memo_ent *v;		/* found through index */
	size_t nr, cap;
	struct itable index;
};

static uint64_t memo_hash(const void *k1, uint64_t k2)
{
	return u64_hash(((uintptr_t)k1 >> 3) ^ k2);
}

static bool memo_hash_at(const void *ctx, size_t i, uint64_t *h)
{
	const struct memo_ent *e = &((const struct memo *)ctx)->v[i];

	*h = memo_hash(e->k1, e->k2);
	return true;
}

/*
 * The entry of (K1, K2); *FOUND says whether it was there.  A new entry has
 * its keys set and its answers zero, for the caller to fill.  NULL without
 * memory: the caller works the answer out unremembered.
 */
static struct memo_ent *memo_get(struct memo *m, const void *k1, uint64_t k2, bool *found)
{
	size_t i;

	*found = false;
	if (itable_full(&m->index, m->nr) && itable_grow(&m->index, m->nr, 256, memo_hash_at, m))
		return NULL;
	itable_each(&m->index, memo_hash(k1, k2), i)
		if (m->v[m->index.slot[i]].k1 == k1 && m->v[m->index.slot[i]].k2 == k2) {
			*found = true;
			return &m->v[m->index.slot[i]];
		}
	if (ARRAY_GROW(m->v, m->cap, m->nr + 1))
		return NULL;
	m->v[m->nr] = (struct memo_ent){ .k1 = k1, .k2 = k2 };
	itable_put(&m->index, i, m->nr);
	return &m->v[m->nr++];
}

struct lock_state {
	struct lock_rules rules;
	/* Per primitive: key (ev, sym = name, tid = rule or -1 for code, pid = lock_kind), by period. */
	struct hist prims;
	/* Per lock-site node: key (ev, addr = call-tree node, sym = innermost primitive). */
	struct hist sites;
	struct site_aux *aux;		/* per entry of sites */
	size_t aux_cap;
	struct node_note *notes;	/* per call-tree node, filled on first use (note_of) */
	size_t notes_cap;
	struct node_note *spare;	/* where a note goes when the table cannot grow */
	struct memo objects;		/* lock objects named, by (binary, address) */
	struct memo verdicts;		/* what the rules said of a name, by pointer */
};

/* What a call-tree node is to the lock walk. */
enum node_class {
	NC_UNSET = 0,
	NC_NOT,				/* no primitive */
	NC_KERNEL,			/* kernel code no rule names */
	NC_WEAK,			/* a delay or lone test-and-set: a lock only under a lock */
	NC_STRONG,			/* a lock primitive */
	NC_PLUMB,			/* scheduler or system-call entry: on the way, not a lock */
	NC_SERIAL,			/* runs under a process-wide lock (rule kind "serial") */
};

/*
 * The built-in rules, then FILE's (may be NULL): 0, -ENOMEM, or
 * MYCL_ERR_BAD_RULES with ERR (LEN bytes) saying why when FILE cannot be read
 * or is not in the format.
 */
static int rules_load(struct lock_rules *r, const char *file, char *err, size_t len)
{
	int bad = 0, rc = lock_rules_parse(r, mycl_default_lock_rules, &bad);
	char *text;

	if (rc || !file)
		return rc;
	text = read_text_file(file);
	if (!text) {
		if (errno == ENOMEM)
			return -ENOMEM;
		/* open_regular()'s EINVAL: a device, a FIFO or a socket */
		snprintf(err, len, "%s: cannot read lock rules: %s", file,
			 errno == EINVAL ? "not a regular file" : strerror(errno));
		return MYCL_ERR_BAD_RULES;
	}
	rc = lock_rules_parse(r, text, &bad);
	free(text);
	if (rc == -EINVAL) {
		snprintf(err, len, "%s:%d: not a lock rule (LAYER KIND PATTERN lines)", file, bad);
		rc = MYCL_ERR_BAD_RULES;
	}
	return rc;
}

/* Without opts.locks: the rules read once, for mycl_profile__lock_summary(). */
int profile_lock_rules_keep(struct mycl_profile *p, const char *file, char *err, size_t len)
{
	p->rules = calloc(1, sizeof(*p->rules));
	if (!p->rules)
		return -ENOMEM;
	return rules_load(p->rules, file, err, len);
}

int profile_locks_init(struct mycl_profile *p, const char *file, char *err, size_t len)
{
	struct lock_state *ls = calloc(1, sizeof(*ls));

	if (!ls)
		return -ENOMEM;
	p->locks = ls;
	return rules_load(&ls->rules, file, err, len);
}

void profile_locks_free(struct mycl_profile *p)
{
	if (p->rules)
		lock_rules_free(p->rules);
	free(p->rules);
	p->rules = NULL;
	if (!p->locks)
		return;
	lock_rules_free(&p->locks->rules);
	hist_free(&p->locks->prims);
	hist_free(&p->locks->sites);
	free(p->locks->aux);
	free(p->locks->notes);
	free(p->locks->spare);
	free(p->locks->objects.v);
	itable_free(&p->locks->objects.index);
	free(p->locks->verdicts.v);
	itable_free(&p->locks->verdicts.index);
	free(p->locks);
	p->locks = NULL;
}

/* The rule for NAME, by its name or by its name without glibc's prefixes and versions. */
static int lock_rule_of(const struct lock_rules *r, const char *name)
{
	char buf[512];
	const char *plain;
	int k;

	if (!name)
		return -1;
	k = lock_rules_match(r, name);
	if (k >= 0)
		return k;
	plain = lock_plain_name(name, buf, sizeof(buf));
	return strcmp(plain, name) ? lock_rules_match(r, plain) : -1;
}

/* Scheduler and syscall entry rules: on a lock's path, but not a lock. */
static bool plumbing(const struct lock_rules *r, int rule)
{
	return !strcmp(r->v[rule].kind, "sched") || !strcmp(r->v[rule].kind, "entry");
}

/* For lockcode.c: what the rules say of a callee's name (remembered per name). */
static int named(void *ctx, const char *name)
{
	struct lock_state *ls = ctx;
	const struct lock_rules *r = &ls->rules;
	bool found;
	struct memo_ent *e = memo_get(&ls->verdicts, name, 0, &found);
	int k;

	if (found)
		return e->verdict;
	k = lock_rule_of(r, name);
	k = k < 0 ? 0 : plumbing(r, k) || !strcmp(r->v[k].kind, "serial") ? -1 : 1;
	if (e)
		e->verdict = k;
	return k;
}

/* The code analysis of a frame's function, or NULL (kernel, inlined, unresolved). */
static const struct lock_code *frame_code(struct mycl_profile *p, const struct ct_frame *f)
{
	const struct sym *s;

	if (!f->sym || !f->dso || f->inl || f->level == 'k' || f->dso->kernel || f->dso->identity)
		return NULL;
	s = symtab_find(&f->dso->syms, f->addr);
	if (!s || s->start != f->addr)
		return NULL;
	return lock_code_of(f->dso, s, named, p->locks);
}

/* What the lock walk knows of a call-tree node, worked out once. */
struct node_note {
	const struct lock_code *code;	/* its function's analysis, or NULL */
	int16_t rule;			/* the rule its name matches, or -1 */
	uint8_t cls;			/* enum node_class; 0 not yet known */
};

static const struct node_note no_note = { NULL, -1, NC_NOT };

static const struct node_note *note_of(struct mycl_profile *p, uint32_t node)
{
	struct lock_state *ls = p->locks;
	const struct ct_frame *f = &p->tree.nodes[node].f;
	struct node_note n;

	if (node < ls->notes_cap && ls->notes[node].cls)
		return &ls->notes[node];
	/* What the code does decides; a rule's name counts where the code shows no lock. */
	n.code = frame_code(p, f);
	n.rule = (int16_t)lock_rule_of(&ls->rules, f->sym);
	if (f->inl && n.rule < 0) {
		/* Code inlined into a primitive is the primitive's. */
		uint32_t r = node;

		while (r != CT_NONE && p->tree.nodes[r].f.inl)
			r = p->tree.nodes[r].parent;
		n.cls = r != CT_NONE && p->tree.nodes[r].parent != CT_NONE ? note_of(p, r)->cls : NC_NOT;
		if (n.cls != NC_STRONG && n.cls != NC_WEAK)
			n.cls = NC_NOT;
	} else if (n.code && lock_kind_primitive(n.code->kind)) {
		n.cls = lock_kind_strong(n.code->kind) ? NC_STRONG : NC_WEAK;
	} else if (n.rule >= 0) {
		n.cls = plumbing(&ls->rules, n.rule) ? NC_PLUMB :
			!strcmp(ls->rules.v[n.rule].kind, "serial") ? NC_SERIAL : NC_STRONG;
	} else {
		n.cls = f->level == 'k' ? NC_KERNEL : NC_NOT;
	}
	if (ARRAY_GROW_ZERO(ls->notes, ls->notes_cap, (size_t)node + 1)) {
		/* Without room: worked out again next time. */
		if (!ls->spare && !(ls->spare = malloc(sizeof(*ls->spare))))
			return &no_note;
		*ls->spare = n;
		return ls->spare;
	}
	ls->notes[node] = n;
	return &ls->notes[node];
}

static uint8_t classify(struct mycl_profile *p, uint32_t node)
{
	return note_of(p, node)->cls;
}

/*
 * The raw address of the frame NODE stands for, on the path from LEAF: the
 * sampled ip for the leaf's frame, else the return address in the function.
 * Inlined and put-back frames have none of their own.  0 when unknown.
 */
static uint64_t frame_address_ret(const struct mycl_profile *p, uint32_t leaf, uint32_t node,
				  bool *is_ret)
{
	const struct calltree *t = &p->tree;
	size_t j = 0, i, nuser = 0, nmode = 0;
	bool user = false;

	*is_ret = false;
	if (t->nodes[node].f.inl || t->nodes[node].f.repaired || !p->cur_ids)
		return 0;
	for (uint32_t a = leaf; a != node; a = t->nodes[a].parent) {
		if (a == CT_NONE)
			return 0;
		j += !t->nodes[a].f.inl && !t->nodes[a].f.repaired;
	}
	for (i = 0; i < p->cur_n; i++) {
		uint64_t id = p->cur_ids[i];
		bool stop = id >= CTX_STOP_ID && id < CTX_STOP_ID + 8;

		if (id >= CTX_MAX_ID && !stop) {
			user = id == (uint64_t)-512;	/* PERF_CONTEXT_USER */
			nmode = 0;
			continue;
		}
		nuser += user;
		nmode++;
		if (!j--) {
			if (stop)
				return 0;
			/* The first address of a context is where it was interrupted. */
			*is_ret = nmode > 1;
			/* Unwound return addresses are one byte back, inside the call. */
			return id + (p->cur_unwound && user && nuser > 1);
		}
	}
	return 0;
}

static uint64_t frame_address(const struct mycl_profile *p, uint32_t leaf, uint32_t node)
{
	bool is_ret;

	return frame_address_ret(p, leaf, node, &is_ret);
}

/* The function's binary address for a raw ADDR of the sample's process; *C its analysis. */
static uint64_t code_at(struct mycl_profile *p, const struct mycl_sample *s, uint64_t addr,
			const struct lock_code **c, struct dso **dso)
{
	struct resolved r;

	*c = NULL;
	if (dso)
		*dso = NULL;
	if (!addr || machine_resolve(p->m, s->pid, s->tid, addr, MYCL_CPUMODE_USER, &r) || !r.sym ||
	    !r.dso || r.dso->kernel || r.dso->identity)
		return 0;
	*c = lock_code_of(r.dso, r.sym, named, p->locks);
	if (dso)
		*dso = r.dso;
	return dso_offset_to_vaddr(r.dso, r.addr);
}

/*
 * BUF ("ARRAY[i]...", LEN bytes) with the program's own name of element i
 * where a "names ARRAY TABLE" rule says which table of strings in D names
 * them: "WALWriteLock (MainLWLockArray[8])".  Unchanged otherwise.
 */
static void element_name(struct mycl_profile *p, struct dso *d, char *buf, size_t len)
{
	struct lock_rules *r = &p->locks->rules;
	struct elf_image *img;

	for (size_t k = 0; k < r->nr_names; k++) {
		struct lock_names *n = &r->names[k];
		size_t al = strlen(n->array), tl = strlen(n->table), ps;
		char *end, name[128], out[512];
		unsigned long i;

		if (strncmp(buf, n->array, al) || buf[al] != '[')
			continue;
		i = strtoul(buf + al + 1, &end, 10);
		if (*end != ']' || !(img = dso_image(d)))
			continue;
		if (n->dso != d) {
			/* (a symbol's name ends at its first byte below 0x20: see symtab.h) */
			n->dso = d;
			n->start = n->end = 0;
			for (size_t j = 0; j < d->data_syms.nr; j++) {
				const struct sym *v = &d->data_syms.syms[j];

				if (v->name && !strncmp(v->name, n->table, tl) &&
				    (unsigned char)v->name[tl] < 0x20) {
					n->start = v->start;
					n->end = v->end;
					break;
				}
			}
		}
		ps = elf_image_ptr_size(img);
		if (!n->start || !ps || (n->end > n->start && i >= (n->end - n->start) / ps) ||
		    elf_image_string_at(img, n->start + i * ps, name, sizeof(name)))
			continue;
		snprintf(out, sizeof(out), "%s (%s)", name, buf);
		snprintf(buf, len, "%s", out);
		return;
	}
}

/* "var", "var.member" or "var+0x10": the global ADDR (a binary address of D) is in. */
static const char *object_name(struct mycl_profile *p, struct dso *d, uint64_t addr)
{
	const struct sym *v = d && addr ? symtab_find(&d->data_syms, addr) : NULL;
	struct memo_ent *e;
	bool found;
	char buf[512];

	if (!v || !v->name)
		return NULL;
	/* Named once per address: the member path reads DWARF. */
	e = memo_get(&p->locks->objects, d, addr, &found);
	if (found)
		return e->name;
	if (inline_member_path(d, v->name, v->start, addr - v->start, buf, sizeof(buf))) {
		if (addr == v->start)
			snprintf(buf, sizeof(buf), "%s", v->name);
		else
			snprintf(buf, sizeof(buf), "%s+%#" PRIx64, v->name, addr - v->start);
	}
	element_name(p, d, buf, sizeof(buf));
	if (!e)
		return machine_intern(p->m, buf);
	return e->name = machine_intern(p->m, buf);
}

/* "ptr->member" (or "*ptr+0x10"): what the global pointer at G of D points to, plus OFF. */
static const char *pointee_name(struct mycl_profile *p, struct dso *d, uint64_t g, int64_t off)
{
	const struct sym *v = d && g ? symtab_find(&d->data_syms, g) : NULL;
	char buf[512];

	if (!v || !v->name || v->start != g)
		return NULL;
	if (inline_pointee_path(d, v->name, v->start, (uint64_t)off, buf, sizeof(buf)))
		snprintf(buf, sizeof(buf), off ? "*%s+%#" PRIx64 : "*%s", v->name, (uint64_t)off);
	element_name(p, d, buf, sizeof(buf));
	return machine_intern(p->m, buf);
}

/*
 * The object a call passes when it passes its caller's own first argument
 * plus OFF (a member of "this"): what the caller's caller passed, if a global.
 * NODE is the frame making the call; LEAF the path's leaf.
 */
static const char *object_from_caller(struct mycl_profile *p, const struct mycl_sample *s,
				      uint32_t leaf, uint32_t node, int64_t off)
{
	uint32_t up = p->tree.nodes[node].parent;
	const struct lock_code *c;
	const struct lock_call *call;
	struct dso *d;
	uint64_t va;

	/* Inlined frames share the address of the function they are inlined into. */
	while (up != CT_NONE && p->tree.nodes[up].f.inl)
		up = p->tree.nodes[up].parent;
	if (up == CT_NONE || p->tree.nodes[up].parent == CT_NONE)
		return NULL;
	va = code_at(p, s, frame_address(p, leaf, up), &c, &d);
	call = va ? lock_code_call_at(c, va) : NULL;
	if (!call || !call->arg0)
		return NULL;
	return object_name(p, d, call->arg0 + (uint64_t)off);
}

/*
 * The object call C (made by NODE's function, of binary D) hands to its
 * primitive: a global, a member of what a global pointer points to, or a
 * member of NODE's own argument, from its caller (*MEMBER set).
 */
static const char *call_object(struct mycl_profile *p, const struct mycl_sample *s, uint32_t leaf,
			       uint32_t node, struct dso *d, const struct lock_call *c, bool *member)
{
	*member = false;
	if (!c)
		return NULL;
	if (c->arg0)
		return object_name(p, d, c->arg0);
	if (c->arg0_deref)
		return pointee_name(p, d, c->arg0_deref, c->arg0_deref_off);
	if (c->arg0_param) {
		*member = true;
		return object_from_caller(p, s, leaf, node, c->arg0_off);
	}
	return NULL;
}

static int count_prim(struct mycl_profile *p, const struct mycl_sample *s, const char *name,
		      int rule, uint8_t kind)
{
	struct hent k = { .ev = s->event->idx, .sym = name, .tid = rule, .pid = kind };

	return hist_add(&p->locks->prims, &k, s->period, 1, NULL);
}

/*
 * A function its code calls a primitive is one on this path only if the
 * call it made here is to a primitive, or sits in one of its spin loops
 * (start_thread waits on a futex at exit, but calls the thread's function
 * through a pointer).  Rules, and frames put back from a call, are trusted.
 */
static bool on_lock_path(struct mycl_profile *p, const struct mycl_sample *s, uint32_t leaf,
			 uint32_t node)
{
	const struct ct_frame *f = &p->tree.nodes[node].f;
	const struct lock_code *c;
	const struct lock_call *call;
	uint64_t va;

	bool is_ret;
	uint64_t addr;

	if (f->repaired || f->inl || f->level == 'k' || note_of(p, node)->rule >= 0)
		return true;
	addr = frame_address_ret(p, leaf, node, &is_ret);
	if (addr && !is_ret)
		return true;	/* the sampled frame itself (below it: its inlined code) */
	va = code_at(p, s, addr, &c, NULL);
	if (!va || !c)
		return false;
	call = lock_code_call_at(c, va);
	return (call && lock_kind_primitive(call->kind)) || lock_code_loop_at(c, va - 1);
}

struct walk {
	bool strong, weak, cut, inline_spin;
	bool cond;			/* a condition-variable wait (rule kind "cond") on the path */
	const char *innermost;		/* nearest primitive to the site? no: the first met */
	const char *seen[16];
	int rules[16];
	uint8_t kinds[16];		/* what their code does (enum lock_kind) */
	size_t nseen;
	const struct lock_code *prim;	/* the outermost user primitive analysed */
};

static void walk_note(struct mycl_profile *p, struct walk *w, uint32_t a, uint8_t cls)
{
	const char *name = p->tree.nodes[a].f.sym;
	const struct node_note *note = note_of(p, a);
	bool dup = false;

	w->strong |= cls == NC_STRONG || cls == NC_SERIAL;
	w->weak |= cls == NC_WEAK;
	if (cls == NC_PLUMB || !name)
		return;
	if (!w->innermost)
		w->innermost = name;
	for (size_t i = 0; i < w->nseen; i++)
		dup |= w->seen[i] == name;
	if (!dup && w->nseen < 16) {
		w->kinds[w->nseen] = note->code ? note->code->kind : LK_UNKNOWN;
		w->rules[w->nseen] = note->rule;
		w->cond |= note->rule >= 0 && !strcmp(p->locks->rules.v[note->rule].kind, "cond");
		w->seen[w->nseen++] = name;
	}
	if (note->code && (note->code->word || note->code->seed || !w->prim))
		w->prim = note->code;
}

/*
 * The lock site of the path ending at LEAF, or CT_NONE when the path is no
 * lock's; W gets the primitives met, AUX what the code says of the lock.  A
 * sample is lock time when its path, from the sampled function up, runs
 * through lock primitives (by rule, or by what their code does), or when it
 * was taken in a spin loop of its own function's code.  Its lock site is the
 * first frame above every primitive.
 */
static uint32_t lock_site(struct mycl_profile *p, const struct mycl_sample *s, uint32_t leaf,
			  struct walk *wp, struct site_aux *auxp)
{
	const struct calltree *t = &p->tree;
	struct walk w = { 0 };
	struct site_aux aux = { 0 };
	const struct lock_code *sc = NULL;
	uint32_t a = leaf, site, below = CT_NONE;
	struct dso *sd;
	uint8_t cls;
	uint64_t va;

	/* Under a function that runs under a process-wide lock (__tz_convert)? */
	cls = classify(p, a);
	if (cls == NC_NOT || cls == NC_KERNEL) {
		uint32_t b = a;

		for (int depth = 0; depth < 16 && t->nodes[b].parent != CT_NONE; depth++) {
			if (classify(p, b) == NC_SERIAL) {
				a = b;
				break;
			}
			b = t->nodes[b].parent;
		}
	}
	/*
	 * The kernel part: primitives and plumbing by rule.  Below its outermost
	 * lock primitive is that lock's own work (the scheduler, interrupts).
	 */
	if (t->nodes[a].f.level == 'k') {
		uint32_t top = CT_NONE;

		for (uint32_t b = a; t->nodes[b].parent != CT_NONE && t->nodes[b].f.level == 'k';
		     b = t->nodes[b].parent)
			if (classify(p, b) == NC_STRONG)
				top = b;
		for (; top != CT_NONE && a != top; a = t->nodes[a].parent)
			if ((cls = classify(p, a)) == NC_STRONG || cls == NC_PLUMB)
				walk_note(p, &w, a, cls);
	}
	while (t->nodes[a].parent != CT_NONE && t->nodes[a].f.level == 'k') {
		cls = classify(p, a);
		if (cls != NC_STRONG && cls != NC_PLUMB && cls != NC_SERIAL)
			break;
		walk_note(p, &w, a, cls);
		a = t->nodes[a].parent;
	}
	if (t->nodes[a].f.level == 'k' && t->nodes[a].parent != CT_NONE && !w.strong) {
		/* Kernel work that is no lock: lock time only if a user primitive made the call. */
		while (t->nodes[a].parent != CT_NONE && t->nodes[a].f.level == 'k')
			a = t->nodes[a].parent;
		if (t->nodes[a].parent == CT_NONE || classify(p, a) < NC_WEAK)
			return CT_NONE;
		w.innermost = NULL;
		w.nseen = 0;
	}
	/* The user part: primitives by rule or by code. */
	if (t->nodes[a].f.level != 'k')
		while (t->nodes[a].parent != CT_NONE) {
			cls = classify(p, a);
			if (cls != NC_STRONG && cls != NC_WEAK && cls != NC_PLUMB && cls != NC_SERIAL)
				break;
			if (below != CT_NONE && !on_lock_path(p, s, leaf, a))
				break;
			walk_note(p, &w, a, cls);
			below = a;
			a = t->nodes[a].parent;
		}
	if (t->nodes[a].parent == CT_NONE) {
		/* Primitives up to the end of the stack: the site was cut off. */
		if (!w.strong || below == CT_NONE)
			return CT_NONE;
		a = below;
		aux.cut = true;
	}
	/* The candidate site's own code: a spin loop there, the call it made. */
	va = code_at(p, s, frame_address(p, leaf, a), &sc, &sd);
	if (va && a != leaf)
		va--;			/* a return address: the call is before it */
	if (!w.strong) {
		const struct lock_loop *lp = lock_code_loop_at(sc, va);

		/* A delay or a lone TAS is a lock only in a spin loop of its caller. */
		if (!lp || !va)
			return CT_NONE;
		aux.object = lp->word;
		aux.object_from = "atomic operand";
		aux.seed = sc->seed;
		w.inline_spin = true;
		if (!w.innermost)
			w.innermost = INLINE_SPIN;
	}
	/* The lock object: the address passed to the primitive, else the atomic's own. */
	if (!aux.object && sc && a != leaf) {
		bool member;

		aux.object = call_object(p, s, leaf, a, sd, lock_code_call_at(sc, va + 1), &member);
		aux.object_from = member ? "member of the caller's argument" : "argument of the call";
	}
	if (!aux.object && t->nodes[a].f.repaired && t->nodes[a].f.dso) {
		/* A put-back frame: the calls of its function that pass a global agree. */
		const struct sym *fs = symtab_find(&t->nodes[a].f.dso->syms, t->nodes[a].f.addr);
		const struct lock_code *fc = fs ? lock_code_of(t->nodes[a].f.dso, fs, named,
							       p->locks) : NULL;
		const char *one = NULL;
		bool many = false;

		for (size_t i = 0; fc && i < fc->nr_calls; i++) {
			bool member;
			const char *o = !lock_kind_primitive(fc->calls[i].kind) ? NULL :
					call_object(p, s, leaf, a, t->nodes[a].f.dso, &fc->calls[i],
						    &member);

			if (o && one && o != one)
				many = true;
			if (o && !one)
				one = o;
		}
		if (one && !many) {
			aux.object = one;
			aux.object_from = "argument of its calls";
		}
	}
	if (!aux.object && w.prim && w.prim->word) {
		aux.object = w.prim->word;
		aux.object_from = "atomic operand";
	}
	if (!aux.seed && w.prim)
		aux.seed = w.prim->seed;
	/*
	 * A frame-pointer chain whose site did not call the primitive below it
	 * (an indirect call, or a call to another function) lost the frames in
	 * between: the true site is among them.
	 */
	if (!aux.cut && below != CT_NONE && p->cur_ids == s->callchain && sc && !t->nodes[a].f.repaired &&
	    t->nodes[below].f.level != 'k' && !t->nodes[below].f.inl && t->nodes[below].f.dso) {
		const struct sym *bs = symtab_find(&t->nodes[below].f.dso->syms, t->nodes[below].f.addr);
		const struct lock_call *c = lock_code_call_at(sc, va + 1);
		bool direct = c && (c->target == t->nodes[below].f.addr ||
				    t->nodes[below].f.dso != t->nodes[a].f.dso);

		if (bs && !direct && profile_frameless(t->nodes[below].f.dso, bs))
			aux.gap_period = s->period;
	}
	site = a;
	/* An address the chain could not resolve is no site anyone can read. */
	if (!t->nodes[a].f.sym && t->nodes[a].f.level != 'k')
		aux.cut = true;
	/* Code inlined into a function is that function's: the site is the function. */
	while (t->nodes[site].f.inl && t->nodes[t->nodes[site].parent].parent != CT_NONE)
		site = t->nodes[site].parent;
	*wp = w;
	*auxp = aux;
	return site;
}

void profile_site_frame(struct mycl_profile *p, const struct ct_frame *f, struct ct_frame *out)
{
	const char *mark = f->repaired && f->sym ? strstr(f->sym, " " MYCL_FROM_CALL_SITE) : NULL;
	char buf[1024];

	*out = *f;
	out->repaired = false;
	if (mark && (size_t)(mark - f->sym) < sizeof(buf)) {
		memcpy(buf, f->sym, (size_t)(mark - f->sym));
		buf[mark - f->sym] = '\0';
		out->sym = machine_intern(p->m, buf);
	}
}

uint32_t profile_wait_site(struct mycl_profile *p, const struct mycl_sample *s, uint32_t leaf,
			   const char **via, bool *lock)
{
	const struct calltree *t = &p->tree;
	struct walk w;
	struct site_aux aux;
	uint32_t a = leaf;

	*via = NULL;
	*lock = false;
	a = lock_site(p, s, leaf, &w, &aux);
	if (a != CT_NONE && !w.cond) {
		*lock = true;
		*via = w.nseen ? w.seen[w.nseen - 1] : w.innermost;
		return a;
	}
	/* No lock: the first function above the system call's wrappers. */
	a = leaf;
	while (t->nodes[a].parent != CT_NONE && t->nodes[a].f.level == 'k')
		a = t->nodes[a].parent;
	while (t->nodes[a].parent != CT_NONE && t->nodes[t->nodes[a].parent].parent != CT_NONE) {
		const struct ct_frame *f = &t->nodes[a].f;
		const struct node_note *n = note_of(p, a);
		const struct lock_code *c = n->code;

		if (!f->inl && !(c && (c->syscalls || c->thin || lock_kind_primitive(c->kind))) &&
		    n->rule < 0)
			break;
		if (!f->inl)
			*via = f->sym;
		a = t->nodes[a].parent;
	}
	if (t->nodes[a].parent == CT_NONE)
		return leaf;
	while (t->nodes[a].f.inl && t->nodes[t->nodes[a].parent].parent != CT_NONE)
		a = t->nodes[a].parent;
	return a;
}

int profile_locks_sample(struct mycl_profile *p, const struct mycl_sample *s, uint32_t leaf)
{
	struct lock_state *ls = p->locks;
	struct walk w;
	struct site_aux aux;
	uint32_t site, idx;
	int err;

	site = lock_site(p, s, leaf, &w, &aux);
	if (site == CT_NONE)
		return 0;
	if ((aux.cut || aux.gap_period) && !aux.object) {
		/* the site lost, the lock known: the futex word the thread is on (recorded) */
		uint64_t word = profile_futex_word(p, s->tid), v;
		struct dso *d;

		if (word && !machine_data_at(p->m, s->pid, s->tid, word, &d, &v) &&
		    (aux.object = object_name(p, d, v))) {
			aux.object_from = "futex word (sys_enter_futex)";
			aux.by_word = true;
		}
	}
	if (w.inline_spin) {
		err = count_prim(p, s, INLINE_SPIN, -1, LK_ACQUIRE);
		if (err)
			return err;
	}
	for (size_t i = 0; i < w.nseen; i++) {
		err = count_prim(p, s, w.seen[i], w.rules[i], w.kinds[i]);
		if (err)
			return err;
	}
	{
		/* (a lost site's samples apart by the word they were on) */
		struct hent k = { .ev = s->event->idx, .addr = site, .sym = w.innermost,
				  .comm = aux.by_word ? aux.object : NULL };

		err = hist_add(&ls->sites, &k, s->period, 1, &idx);
	}
	if (err)
		return err;
	if (ARRAY_GROW_ZERO(ls->aux, ls->aux_cap, (size_t)idx + 1))
		return -ENOMEM;
	if (!ls->aux[idx].object && aux.object) {
		ls->aux[idx].object = aux.object;
		ls->aux[idx].object_from = aux.object_from;
	}
	if (!ls->aux[idx].seed)
		ls->aux[idx].seed = aux.seed;
	ls->aux[idx].cut |= aux.cut;
	ls->aux[idx].gap_period += aux.gap_period;
	return 0;
}

/* ---- the report ---- */

struct site_acc {
	struct ct_frame f;
	uint64_t period, samples;
	struct vtree callers;
	const char *via[MYCL_LOCK_MAX_VIA];
	uint64_t via_period[MYCL_LOCK_MAX_VIA];
	size_t nvia;
	bool inl;
	struct site_aux aux;
	uint64_t from_call_site;
	uint64_t by_object;		/* period credited through the lock word (by_object()) */
};

static int prim_cmp(const void *a, const void *b)
{
	const struct mycl_lock_primitive *x = a, *y = b;

	return x->period != y->period ? (x->period > y->period ? -1 : 1) : strcmp(x->name, y->name);
}

static int site_cmp(const void *a, const void *b)
{
	const struct mycl_lock_site *x = a, *y = b;

	return x->period != y->period ? (x->period > y->period ? -1 : 1) :
	       strcmp(x->sym ? x->sym : "", y->sym ? y->sym : "");
}

/* The site's primitives into ST, largest period first. */
static void site_vias(const struct site_acc *sa, struct mycl_lock_site *st)
{
	st->nr_via = 0;
	for (size_t i = 0; i < sa->nvia && i < MYCL_LOCK_MAX_VIA; i++) {
		size_t k = st->nr_via++;

		while (k && st->vias[k - 1].period < sa->via_period[i]) {
			st->vias[k] = st->vias[k - 1];
			k--;
		}
		st->vias[k].name = sa->via[i];
		st->vias[k].period = sa->via_period[i];
	}
}

/* Primitive VIA's PERIOD at site SA. */
static void via_add(struct site_acc *sa, const char *via, uint64_t period)
{
	size_t k;

	if (!via)
		return;
	for (k = 0; k < sa->nvia && sa->via[k] != via; k++)
		;
	if (k == sa->nvia && k < MYCL_LOCK_MAX_VIA)
		sa->via[sa->nvia++] = via;
	if (k < MYCL_LOCK_MAX_VIA)
		sa->via_period[k] += period;
}

/* Lock-site row I of LS into its site's accumulator (a function's frames are one site). */
static int site_add(const struct mycl_profile *p, const struct lock_state *ls, size_t i,
		    struct site_acc **accp, size_t *nacc, size_t *cap)
{
	const struct hent *h = &ls->sites.ents[i];
	const struct ct_frame *f = &p->tree.nodes[h->addr].f;
	struct site_acc *acc = *accp, *sa = NULL;
	struct ct_frame sf;
	int err;

	/* A function's frame and its frame put back from a call are one site. */
	profile_site_frame((struct mycl_profile *)p, f, &sf);
	for (size_t k = 0; k < *nacc && !sa; k++)
		if (acc[k].f.dso == sf.dso && acc[k].f.addr == sf.addr &&
		    acc[k].f.level == sf.level && (acc[k].f.sym == sf.sym ||
		    (acc[k].f.sym && sf.sym && !strcmp(acc[k].f.sym, sf.sym))))
			sa = &acc[k];
	if (!sa) {
		if (ARRAY_GROW(*accp, *cap, *nacc + 1))
			return -ENOMEM;
		acc = *accp;
		sa = &acc[(*nacc)++];
		memset(sa, 0, sizeof(*sa));
		sa->f = sf;
		err = vtree_root(&sa->callers, &sf);
		if (err)
			return err;
	}
	sa->period += h->period;
	sa->samples += h->samples;
	sa->from_call_site += f->repaired ? h->period : 0;
	sa->inl |= h->sym && !strcmp(h->sym, INLINE_SPIN);
	if (i < ls->aux_cap) {
		const struct site_aux *x = &ls->aux[i];

		if (!sa->aux.object && x->object) {
			sa->aux.object = x->object;
			sa->aux.object_from = x->object_from;
		}
		if (!sa->aux.seed)
			sa->aux.seed = x->seed;
		sa->aux.cut |= x->cut;
		sa->aux.gap_period += x->gap_period;
	}
	via_add(sa, h->sym, h->period);
	return vtree_add_callers(p, &sa->callers, (uint32_t)h->addr, h->period, h->samples);
}

/* SA is a site the chains showed (not cut, not mostly through lost frames) taking OBJECT. */
static bool takes_object(const struct site_acc *sa, const char *object)
{
	return !sa->aux.cut && sa->aux.gap_period < sa->period && sa->aux.object &&
	       !strcmp(sa->aux.object, object);
}

/*
 * Row H, whose chains lost the site, held its lock word (H->comm, from the
 * futex word): to the known sites that take that object, in proportion to
 * their own time.  False when no site takes it.
 */
static bool by_object(struct site_acc *acc, size_t nacc, const struct hent *h)
{
	uint64_t own = 0, given = 0, given_s = 0;
	struct site_acc *last = NULL;

	for (size_t k = 0; k < nacc; k++)
		if (takes_object(&acc[k], h->comm))
			own += acc[k].period - acc[k].by_object;
	if (!own)
		return false;
	for (size_t k = 0; k < nacc; k++) {
		struct site_acc *sa = &acc[k];
		uint64_t mine, share, share_s;

		if (!takes_object(sa, h->comm))
			continue;
		mine = sa->period - sa->by_object;
		share = (uint64_t)((double)h->period * (double)mine / (double)own);
		share_s = (uint64_t)((double)h->samples * (double)mine / (double)own);
		sa->period += share;
		sa->samples += share_s;
		sa->by_object += share;
		via_add(sa, h->sym, share);
		given += share;
		given_s += share_s;
		last = sa;
	}
	/* (what the rounding left: to the last) */
	last->period += h->period - given;
	last->by_object += h->period - given;
	last->samples += h->samples - given_s;
	return true;
}

MYCL_API int mycl_profile__locks(const struct mycl_profile *p, size_t ev, struct mycl_lock_report **out)
{
	const struct lock_state *ls = p->locks;
	struct mycl_lock_report *r;
	struct site_acc *acc = NULL;
	size_t nacc = 0, cap = 0;
	int err = 0;

	*out = NULL;
	if (!ls || ev >= p->nr_events)
		return -EINVAL;
	r = calloc(1, sizeof(*r));
	if (!r)
		return -ENOMEM;
	r->event = p->events[ev].event;
	r->fix = p->nr_stack_samples ? "record with a larger stack copy: --call-graph dwarf,65528" :
		 "record with --call-graph dwarf";
	r->total_period = p->events[ev].total_period_all;
	r->total_samples = p->events[ev].nr_samples_all;
	r->primitives = calloc(ls->prims.nr ? ls->prims.nr : 1, sizeof(*r->primitives));
	if (!r->primitives) {
		free(r);
		return -ENOMEM;
	}
	for (size_t i = 0; i < ls->prims.nr; i++) {
		const struct hent *h = &ls->prims.ents[i];
		struct mycl_lock_primitive *pr = &r->primitives[r->nr_primitives];

		if ((size_t)h->ev != ev)
			continue;
		pr->name = h->sym;
		/* What the code does names the kind; the rule where the code does not tell. */
		if (lock_kind_primitive((uint8_t)h->pid) || h->tid < 0) {
			pr->layer = h->tid >= 0 ? ls->rules.v[h->tid].layer : "code";
			pr->kind = lock_kind_name((uint8_t)h->pid);
		} else {
			pr->layer = ls->rules.v[h->tid].layer;
			pr->kind = ls->rules.v[h->tid].kind;
		}
		pr->period = h->period;
		pr->samples = h->samples;
		r->nr_primitives++;
	}
	sort_array(r->primitives, r->nr_primitives, sizeof(*r->primitives), prim_cmp);
	for (size_t i = 0; i < ls->sites.nr && !err; i++) {
		const struct hent *h = &ls->sites.ents[i];

		if ((size_t)h->ev != ev)
			continue;
		r->period += h->period;
		r->samples += h->samples;
		if (h->comm)
			continue;	/* a lost site by its futex word: below */
		err = site_add(p, ls, i, &acc, &nacc, &cap);
	}
	/* Samples whose site the chain lost, by the futex word: to the sites that take it. */
	for (size_t i = 0; i < ls->sites.nr && !err; i++) {
		const struct hent *h = &ls->sites.ents[i];

		if ((size_t)h->ev != ev || !h->comm)
			continue;
		if (!by_object(acc, nacc, h))
			err = site_add(p, ls, i, &acc, &nacc, &cap);
	}
	r->sites = calloc(nacc ? nacc : 1, sizeof(*r->sites));
	if (!r->sites)
		err = -ENOMEM;
	for (size_t k = 0; k < nacc; k++) {
		struct site_acc *sa = &acc[k];
		struct mycl_lock_site *st;

		if (err) {
			vtree_free(&sa->callers);
			continue;
		}
		st = &r->sites[r->nr_sites++];
		st->sym = sa->f.sym;
		st->dso = sa->f.dso ? sa->f.dso->short_name : "[unknown]";
		st->period = sa->period;
		st->samples = sa->samples;
		site_vias(sa, st);
		st->inlined_spin = sa->inl;
		st->lock_word = sa->aux.object;
		st->lock_word_from = sa->aux.object_from;
		st->seed = sa->aux.seed;
		st->stack_cut = sa->aux.cut;
		st->lost_frames_period = sa->aux.gap_period;
		st->from_call_site_period = sa->from_call_site;
		st->by_object_period = sa->by_object;
		err = vtree_finish(&sa->callers, &st->callers);
	}
	free(acc);
	if (err) {
		mycl_lock_report__free(r);
		return err;
	}
	sort_array(r->sites, r->nr_sites, sizeof(*r->sites), site_cmp);
	*out = r;
	return 0;
}

MYCL_API void mycl_lock_report__free(struct mycl_lock_report *r)
{
	if (!r)
		return;
	for (size_t i = 0; i < r->nr_sites; i++)
		mycl_cg_node__free(r->sites[i].callers);
	free(r->sites);
	free(r->primitives);
	free(r);
}

/*
 * Without call paths: the flat rows whose function is a primitive, for the
 * section of the default report.  No lock sites (those need --locks).
 */
/*
 * What the code of a flat row's function does, when it is a lock primitive
 * (a strong one, or a delay), from its own code: LK_UNKNOWN otherwise.
 * Rows under 0.05% of TOTAL are not looked at.
 */
static uint8_t row_code_kind(const struct mycl_profile *p, const struct mycl_hot_row *row,
			     uint64_t total)
{
	const struct hist *h = p->children ? &p->incl : &p->self;	/* the rows' (make_rows) */
	const struct hent *he;
	uint8_t kind;
	const struct sym *fn;
	struct dso *d;

	if (!row->sym || row->level != '.' || row->period * 2000 < total || row->id >= h->nr)
		return LK_UNKNOWN;
	he = &h->ents[row->id];
	d = he->dso;
	if (!d || d->kernel || d->identity || !(fn = symtab_find(&d->syms, he->addr)) ||
	    fn->start != he->addr)
		return LK_UNKNOWN;
	kind = lock_code_kind_shallow(d, fn);
	return lock_kind_strong(kind) || kind == LK_DELAY ? kind : LK_UNKNOWN;
}

MYCL_API int mycl_profile__lock_summary(const struct mycl_profile *p, size_t ev,
					const char *rules_file, struct mycl_lock_report **out)
{
	const struct lock_rules *rules = p->locks ? &p->locks->rules : p->rules;
	struct lock_rules own = { 0 };
	const struct mycl_profile_event *pe;
	struct mycl_lock_report *r;
	char msg[512];
	int err = 0;

	*out = NULL;
	if (ev >= p->nr_events)
		return -EINVAL;
	pe = &p->events[ev];
	if (rules_file || !rules) {
		err = rules_load(&own, rules_file, msg, sizeof(msg));
		rules = &own;
	}
	r = err ? NULL : calloc(1, sizeof(*r));
	if (r)
		r->primitives = calloc(pe->nr_rows ? pe->nr_rows : 1, sizeof(*r->primitives));
	if (!r || !r->primitives) {
		lock_rules_free(&own);
		mycl_lock_report__free(r);
		return err ? err : -ENOMEM;
	}
	r->event = pe->event;
	r->total_period = pe->total_period_all;
	r->total_samples = pe->nr_samples_all;
	for (size_t i = 0; i < pe->nr_rows; i++) {
		const struct mycl_hot_row *row = &pe->rows[i];
		int rule = lock_rule_of(rules, row->sym);
		uint8_t kind = rule < 0 ? row_code_kind(p, row, pe->total_period_all) : LK_UNKNOWN;
		struct mycl_lock_primitive *pr;

		if (!row->period || (rule < 0 && !kind) || (rule >= 0 && plumbing(rules, rule)))
			continue;
		pr = &r->primitives[r->nr_primitives++];
		pr->name = row->sym;
		pr->period = row->period;
		pr->samples = row->samples;
		r->period += row->period;
		r->samples += row->samples;
		snprintf(pr->kind_buf, sizeof(pr->kind_buf), "%s",
			 rule >= 0 ? rules->v[rule].kind : lock_kind_name(kind));
		snprintf(pr->layer_buf, sizeof(pr->layer_buf), "%s",
			 rule >= 0 ? rules->v[rule].layer : "code");
		pr->kind = pr->kind_buf;
		pr->layer = pr->layer_buf;
	}
	lock_rules_free(&own);
	sort_array(r->primitives, r->nr_primitives, sizeof(*r->primitives), prim_cmp);
	*out = r;
	return 0;
}

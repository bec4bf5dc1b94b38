/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* Writers: the flat profile as text for tickets, or as JSON for programs. */
#ifndef MYCL_REPORT_H
#define MYCL_REPORT_H

#include <stdbool.h>
#include <stdio.h>
#include "mycl/profile.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mycl_report_opts {
	size_t sz;			/* sizeof(struct mycl_report_opts) */
	double percent_limit;		/* hide rows below this overhead (percent) */
	bool no_header;			/* omit the recording's header block */
	bool no_summary;		/* omit the symbolization summary */
	size_t max_rows;		/* 0: all rows */
	/*
	 * Overheads relative to the samples the filters kept (sum 100%), instead
	 * of to all samples of the event as perf report does by default.
	 */
	bool relative;
	bool graph;			/* under each row, the tree of its callers */
	double graph_limit;		/* hide branches under this percent; 0.5 when unset */
	bool caller_order;		/* graphs from the outermost caller down (perf -g caller) */
	/*
	 * Events read as a group by leader sampling are shown side by side (one
	 * table per group, perf report's default) unless NO_GROUP: then each
	 * event has its own table, as perf report --no-group.
	 */
	bool no_group;
	/*
	 * Text: key columns as wide as their longest value.  Else (the default)
	 * each but the last is at most 22 columns, longer values shortened in the
	 * middle, so that rows keep within 100 columns with the symbol's room.
	 */
	bool wide;
};

/* True when the text or JSON report shows event EV inside its group's table. */
bool mycl_report__in_group_view(const struct mycl_profile *p, size_t ev,
				const struct mycl_report_opts *opts);

struct mycl_stat;
/*
 * Counter statistics (mycl/stat.h): the recording's header, then each
 * event's count, unit and derived figure (per CPU or thread when recorded
 * so), each interval's with -I, then the whole run's; a multiplexed
 * counter with its running share.  opts: no_header.  0 or -EIO.
 */
int mycl_report__stat_text(FILE *out, const struct mycl_stat *st,
			   const struct mycl_report_opts *opts);
/* The same as one self-contained HTML page (no script, fetches nothing).  0, -ENOMEM, -EIO. */
int mycl_report__stat_html(FILE *out, const struct mycl_stat *st, const char *title);
/* The same as JSON, schema "mycl-stat/1" (documented in mycl-hot(1)).  0 or -EIO. */
int mycl_report__stat_json(FILE *out, const struct mycl_stat *st,
			   const struct mycl_report_opts *opts);

/* Writes the text report to OUT.  0, or -EIO when writing failed. */
int mycl_report__text(FILE *out, const struct mycl_profile *p, const struct mycl_report_opts *opts);

/*
 * Writes the JSON report to OUT (schema "mycl-hot/1": header, events with
 * rows, symbolization; documented in mycl-hot(1)).  0 or -EIO.
 */
int mycl_report__json(FILE *out, const struct mycl_profile *p, const struct mycl_report_opts *opts);

/*
 * Writes ROOT (from mycl_profile__symbol_graph) as a text tree, percentages
 * of all of event EV's samples.  0 or a negative code.
 */
int mycl_report__graph_text(FILE *out, const struct mycl_profile *p, size_t ev,
			    const struct mycl_cg_node *root, bool callees,
			    const struct mycl_report_opts *opts);

/* The same as JSON, schema "mycl-hot-graph/1". */
int mycl_report__graph_json(FILE *out, const struct mycl_profile *p, size_t ev,
			    const struct mycl_cg_node *root, bool callees,
			    const struct mycl_report_opts *opts);

/*
 * Folded stacks of event EV: "comm;outer;...;inner COUNT" per distinct path,
 * COUNT in samples (or in period with BY_PERIOD).  Needs a profile built with
 * callgraph.  0 or a negative code.
 */
int mycl_report__folded(FILE *out, const struct mycl_profile *p, size_t ev, bool by_period);

struct mycl_flame_opts {
	size_t sz;			/* sizeof(struct mycl_flame_opts) */
	const char *title;		/* NULL: "Flame graph" */
	bool by_period;			/* widths by period (time for cpu-clock), not samples */
	unsigned int width;		/* px; 0: 1200 */
	bool inline_svg;		/* no XML prologue, for an HTML page */
	bool by_share;			/* differential: colour by the change of each frame's share
					 * of its run, not of its amount */
};

/*
 * Writes event EV's call paths (a profile built with callgraph) as an
 * interactive flame graph: a self-contained SVG with its own script (a click
 * zooms on a frame, "Search" or Ctrl-F highlights frames by regular expression
 * and gives their share, tooltips name each frame).  Frames narrower than
 * 0.1 px are left out.  0, -EINVAL (no call paths, no such event), -ENOMEM,
 * -EIO.
 */
int mycl_report__flamegraph(FILE *out, const struct mycl_profile *p, size_t ev,
			    const struct mycl_flame_opts *opts);

/*
 * A differential flame graph: NEW_EV of NEW_P laid out as above, each frame
 * coloured by how its amount (or with by_share its share of the run) changed
 * from BASE_EV of BASE: red grew, blue shrank, white within sampling noise
 * (|z| < 4 on the samples); both values in its tooltip.  Frames are
 * matched by name along their call path, so two builds compare.  Frames gone
 * from NEW have no width: mycl-diff's table lists them.
 */
int mycl_report__flamegraph_diff(FILE *out, const struct mycl_profile *base, size_t base_ev,
				 const struct mycl_profile *new_p, size_t new_ev,
				 const struct mycl_flame_opts *opts);

struct mycl_annotate_opts;

struct mycl_html_opts {
	size_t sz;			/* sizeof(struct mycl_html_opts) */
	const char *title;		/* NULL: "mycl profile" */
	size_t max_rows;		/* rows of the flat profile; 0: 50 */
	size_t annotate;		/* hottest user functions annotated (profile built with
					 * annotate); 0: none */
	const struct mycl_annotate_opts *annotate_opts;
};

/*
 * Writes one self-contained HTML page about event EV: the recording and its
 * quality warnings, the flame graph (profiles with call paths), the flat
 * profile, the lock and spin sites (full with a profile built with locks),
 * the hottest code annotated, and the symbolization summary.  The page
 * fetches nothing.  0, -EINVAL, -ENOMEM or -EIO.
 */
int mycl_report__html(FILE *out, const struct mycl_profile *p, size_t ev,
		      const struct mycl_html_opts *opts);

struct mycl_ticket_opts {
	size_t sz;			/* sizeof(struct mycl_ticket_opts) */
	bool markdown;			/* markdown (GitHub, GitLab) instead of plain text */
	unsigned int width;		/* columns; 0: 100 (at least 60) */
	size_t top;			/* rows of the flat profile; 0: 20 */
	size_t paths;			/* top functions whose callers are shown; 0: 3 */
	size_t annotate;		/* hottest user functions annotated; 0: 2 */
	/*
	 * Drop what identifies the machine and its users: host name, command
	 * line, the recording's directory, home directories and user names.
	 */
	bool redact;
	const char *const *binaries;	/* false sharing in these (NULL-terminated); NULL: the
					 * recording's two user binaries with the most samples */
	const char *symfs;		/* where the recording's binaries are */
	bool no_share;			/* no false-sharing section */
	const struct mycl_annotate_opts *annotate_opts;
	const struct mycl_archive *archive; /* the profile's perf archive, for debug files */
	bool share_types;		/* the section judges struct members too (mycl-share --types) */
	const char *home;		/* --redact replaces it too (the user's $HOME); NULL: none */
	/*
	 * A perf stat recording run beside the profile (mycl/stat.h): its counts
	 * and derived figures in a section after the recording's ("Counters");
	 * JSON "stat" (mycl-stat/1), null without.
	 */
	const struct mycl_stat *stat;
	bool jira;			/* Jira wiki markup (h2., ||head||, {noformat}) instead of
					 * plain text; with markdown: -EINVAL */
	/*
	 * The hottest code, false sharing and build facts of shared libraries
	 * too; without, the programs' own binaries (libraries when no program
	 * has samples or functions to annotate).
	 */
	bool libraries;
};

/*
 * The ticket attachment of event EV: the recording and its warnings, the
 * flat profile, the callers of the top functions, lock and spin sites, the
 * hottest code annotated, false sharing weighted by the samples, the
 * symbolization summary and the main binaries' build.  Every line within the
 * width: names shortened in the middle, long lines folded.  Deterministic.
 * P built with callgraph, locks and annotate; the false sharing is weighed by
 * P itself (mycl_share_opts.profile), so with call_sites and data_addresses
 * too it weighs as mycl-share --perf does, and the recording is not read
 * again.  0, -EINVAL, -ENOMEM or -EIO.
 */
int mycl_report__ticket(FILE *out, const struct mycl_profile *p, size_t ev,
			const struct mycl_ticket_opts *opts);
/*
 * The same as JSON, schema "mycl-report/1": {"schema", "profile" (mycl-hot/1),
 * "locks" (or null), "annotations": [...], "share": [mycl-share/1...],
 * "build": [{"binary", "compiler", "producer", "flags", "march", "pie",
 * "static", "lto", "debug_info", "frame_pointers" or "frame_pointer_share"}]}.
 */
int mycl_report__ticket_json(FILE *out, const struct mycl_profile *p, size_t ev,
			     const struct mycl_ticket_opts *opts);

struct mycl_pprof_opts {
	size_t sz;			/* sizeof(struct mycl_pprof_opts) */
	bool no_gzip;			/* the bare protobuf */
};

/*
 * Writes event EV (a profile built with callgraph) as pprof's profile.proto,
 * gzipped: sample types "samples"/count and the event (nanoseconds for
 * cpu-clock and task-clock), one Sample per distinct call path and thread,
 * Locations per function frame with inlined functions as further Lines,
 * Mappings with paths and build-ids, labels comm, pid and tid when the profile
 * is sorted on them.  0, -EINVAL, -ENOMEM or -EIO.
 */
int mycl_report__pprof(FILE *out, const struct mycl_profile *p, size_t ev,
		       const struct mycl_pprof_opts *opts);

#ifdef __cplusplus
}
#endif
#endif

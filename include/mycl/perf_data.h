/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Reading perf.data recordings (file mode and pipe mode, either byte order,
 * zstd-compressed records) into plain decoded records.
 */
#ifndef MYCL_PERF_DATA_H
#define MYCL_PERF_DATA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "mycl/log.h"

#ifdef __cplusplus
extern "C" {
#endif

struct mycl_perf_data;

/* Declares an opts struct with its size filled in, the rest as given. */
#define MYCL_OPTS(TYPE, NAME, ...) \
	struct TYPE NAME = { .sz = sizeof(struct TYPE), __VA_ARGS__ }

/*
 * Who reads the data section from the file.  With AUTO, the read_ahead
 * switch (mycl/tuning.h), when set, decides instead.
 */
enum mycl_read_ahead {
	MYCL_READ_AHEAD_AUTO = 0,	/* a thread, for regular files of 4 MiB and more on 2+ CPUs */
	MYCL_READ_AHEAD_OFF,		/* the calling thread, with read() */
	MYCL_READ_AHEAD_ON,		/* a thread, for every regular file */
};

struct mycl_perf_data_opts {
	size_t sz;			/* sizeof(struct mycl_perf_data_opts) */
	mycl_print_fn print;		/* warnings and debug messages; NULL: none */
	void *print_ctx;
	bool file_order;		/* do not sort records by time */
	size_t max_queue_bytes;		/* records held for time ordering; 0: 256 MiB */
	int read_ahead;			/* enum mycl_read_ahead */
	/*
	 * Called while records are read, every 16 MiB of the data section and
	 * once at its end: bytes read, and the data section's size (0 in pipe
	 * mode).  For a progress line; NULL: none.
	 */
	void (*progress)(uint64_t done, uint64_t total, void *ctx);
	void *progress_ctx;
	/*
	 * Only the samples in these time ranges, in perf's --time syntax:
	 * "START,STOP" in seconds of the recording's clock (to 9 decimals,
	 * inclusive, either side empty for open; several separated by spaces),
	 * or percentages of the span from the first to the last sample: "a%/n"
	 * (the nth slice of a%), "a%-b%", "a%"; several comma-separated.  Other
	 * records are all read.  Percentages need the header's first and last
	 * sample times; without them the file is read once more to find them
	 * (a pipe is refused).  NULL or "": every sample.  A malformed or
	 * empty range fails the open with -EINVAL; __read fails with
	 * MYCL_ERR_NOT_RECORDED on samples that carry no time.
	 */
	const char *time;
};

/* One range of opts.time, inclusive, in the recording's clock (ns); open sides 0 and ~0. */
struct mycl_time_range {
	uint64_t start, end;
};

/* What the header and feature sections (or pipe-mode header records) say. */
struct mycl_build_id {
	int32_t pid;			/* -1 for the kernel and its modules */
	uint8_t size;			/* bytes used in id[] */
	uint8_t id[20];
	const char *filename;
};

struct mycl_perf_info {
	bool pipe_mode;
	bool swapped;			/* file byte order differs from the host's */
	bool data_size_zero;		/* header said 0: perf was killed */
	uint64_t file_size;		/* 0 in pipe mode */
	uint64_t data_offset, data_size;
	const char *hostname, *os_release, *perf_version, *arch, *cpudesc, *cpuid;
	const char *cmdline;		/* argv joined by spaces */
	uint32_t nr_cpus_online, nr_cpus_avail;
	uint64_t total_mem_kb;
	uint64_t clockid;		/* ~0 when unknown */
	uint64_t first_sample_time, last_sample_time; /* SAMPLE_TIME feature, else as read */
	uint32_t compression_type, compression_level; /* COMPRESSED feature; type 1 = zstd */
	uint32_t compression_mmap_len;	/* COMPRESSED feature: the ring buffer a record inflates into */
	size_t nr_build_ids;
	const struct mycl_build_id *build_ids;
	uint64_t features[4];		/* feature bits present */
	/*
	 * A perf record --threads directory (given as PATH): its data.N files,
	 * read after the 'data' file's records and merged with them by time;
	 * 0 for a single file.
	 */
	uint32_t nr_data_files;
	uint64_t data_files_size;	/* their bytes */
	uint64_t dir_version;		/* the DIR_FORMAT feature's version; 0: none */
};

/* One event (perf_event_attr) of the recording. */
struct mycl_event {
	int idx;
	const char *name;		/* from EVENT_DESC/EVENT_UPDATE, else derived */
	uint32_t type;
	uint64_t config;
	uint64_t sample_period_or_freq;
	bool freq;
	uint64_t sample_type;		/* PERF_SAMPLE_* bits */
	uint64_t read_format;
	uint64_t flags;			/* the attr's bitfield word, in host bit order */
	uint64_t branch_sample_type;
	uint64_t sample_regs_user, sample_regs_intr;
	uint32_t sample_stack_user;
	uint32_t attr_size;		/* as written in the file */
	/* Counted while reading: */
	uint64_t nr_samples;
	uint64_t total_period;
	/*
	 * The event whose samples read this one's count (PERF_SAMPLE_READ with
	 * PERF_FORMAT_GROUP, as in leader sampling '{a,b}:S'); idx when none.
	 * Known once a sample read the group.
	 */
	int group_leader;
	unsigned int nr_group_members;	/* on a leader: events its samples read, itself first */
	/* EVENT_UPDATE's unit and scale (perf stat: task-clock counts ns shown as "msec"). */
	const char *unit;		/* NULL when none */
	double scale;			/* 0 when none */
};

enum mycl_cpumode {
	MYCL_CPUMODE_UNKNOWN = 0,
	MYCL_CPUMODE_KERNEL = 1,
	MYCL_CPUMODE_USER = 2,
	MYCL_CPUMODE_HYPERVISOR = 3,
	MYCL_CPUMODE_GUEST_KERNEL = 4,
	MYCL_CPUMODE_GUEST_USER = 5,
};

struct mycl_branch_entry {
	uint64_t from, to, flags;
};

/*
 * A decoded PERF_RECORD_SAMPLE.  Pointers are valid only during the
 * callback.  Fields the event does not sample are 0 (cpu, pid, tid: ~0 / -1).
 */
struct mycl_sample {
	const struct mycl_event *event;
	uint16_t misc;
	enum mycl_cpumode cpumode;
	uint64_t sample_type;
	uint64_t id, ip, time, addr, stream_id, period;
	int32_t pid, tid;
	uint32_t cpu;
	uint64_t weight;		/* WEIGHT, or WEIGHT_STRUCT's var1 */
	uint64_t weight_struct;		/* WEIGHT_STRUCT as read */
	uint64_t data_src, transaction, phys_addr, cgroup;
	uint64_t data_page_size, code_page_size;
	/* READ: values in read order; ids when read_format has ID. */
	uint64_t read_nr, time_enabled, time_running;
	const uint64_t *read_values, *read_ids;
	uint64_t callchain_nr;
	const uint64_t *callchain;
	uint32_t raw_size;
	const void *raw;
	uint64_t branch_nr;
	uint64_t branch_hw_idx;		/* ~0 when not recorded */
	const struct mycl_branch_entry *branches;
	uint64_t user_regs_abi, user_regs_mask;
	uint32_t user_regs_nr;
	const uint64_t *user_regs;
	uint64_t user_stack_size, user_stack_dyn_size;
	const void *user_stack;
	uint64_t intr_regs_abi, intr_regs_mask;
	uint32_t intr_regs_nr;
	const uint64_t *intr_regs;
	uint64_t aux_size;
	const void *aux;
};

/* MMAP and MMAP2 records. */
struct mycl_mmap {
	int32_t pid, tid;
	uint64_t start, len, pgoff;
	uint16_t misc;			/* cpumode, MMAP_DATA (1 << 13) */
	bool is_mmap2;
	uint32_t maj, min, prot, flags;
	uint64_t ino, ino_generation;
	uint8_t build_id_size;		/* > 0 when MMAP2 carried a build-id */
	uint8_t build_id[20];
	const char *filename;
	uint64_t time;			/* from sample_id_all, else 0 */
};

struct mycl_comm {
	int32_t pid, tid;
	bool exec;
	const char *comm;
	uint64_t time;
};

/* FORK and EXIT. */
struct mycl_task {
	int32_t pid, ppid, tid, ptid;
	uint64_t time;
};

/* SWITCH and SWITCH_CPU_WIDE (perf record --switch-events, --latency). */
struct mycl_context_switch {
	bool out;			/* the task left the CPU; else it came on */
	bool preempt;			/* out while still runnable */
	bool cpu_wide;			/* SWITCH_CPU_WIDE: every task of a CPU (-a) */
	int32_t next_prev_pid, next_prev_tid;	/* CPU_WIDE: the other task; else -1 */
	int32_t pid, tid;		/* the task switched (sample_id_all), else -1 */
	uint64_t time;			/* from sample_id_all, else 0 */
};

struct mycl_ksymbol {
	uint64_t addr;
	uint32_t len;
	uint16_t ksym_type, flags;	/* flags & 1: unregister */
	const char *name;
};

/*
 * perf stat record's records.  STAT: one counter's value as read, on CPU
 * (its number; -1 when counted on any) and thread (an index into the
 * THREAD_MAP, mycl_perf_data__stat_threads()).  With -I, the values are
 * cumulative: each interval is the change since the round before.
 */
struct mycl_stat_value {
	const struct mycl_event *event;	/* NULL when the id names no event */
	uint64_t id;
	int32_t cpu;
	uint32_t thread;
	uint64_t val, ena, run;		/* count, time enabled, time running (ns) */
};

/* STAT_ROUND: the values before it were read at TIME (ns since the start). */
struct mycl_stat_round {
	bool final;			/* the run's end; else an interval (-I) */
	uint64_t time;
};

/* STAT_CONFIG, and the thread and CPU maps of a perf stat recording. */
struct mycl_stat_config {
	bool present;			/* a STAT_CONFIG record was read */
	uint32_t aggr_mode;		/* perf's: 0 none (-A), 1 global, 2 socket, 3 die,
					 * 4 core, 5 thread, 7 node */
	uint64_t interval_ms;		/* -I; 0: none */
	bool scale;			/* counts scaled by enabled/running */
};

struct mycl_stat_thread {
	int32_t pid;			/* -1: every thread (system-wide) */
	char comm[16];
};

/*
 * Callbacks for mycl_perf_data__read().  Any may be NULL.  A non-zero return
 * stops the read and is returned from it.  Records arrive in time order
 * (as perf orders them) unless opts.file_order was set.
 */
struct mycl_record_ops {
	size_t sz;			/* sizeof(struct mycl_record_ops) */
	int (*sample)(const struct mycl_sample *s, void *ctx);
	int (*mmap)(const struct mycl_mmap *m, void *ctx);
	int (*comm)(const struct mycl_comm *c, void *ctx);
	int (*fork)(const struct mycl_task *t, void *ctx);
	int (*exit)(const struct mycl_task *t, void *ctx);
	int (*ksymbol)(const struct mycl_ksymbol *k, void *ctx);
	int (*stat)(const struct mycl_stat_value *v, void *ctx);
	int (*stat_round)(const struct mycl_stat_round *r, void *ctx);
	int (*context_switch)(const struct mycl_context_switch *sw, void *ctx);
};

/* Counters kept while reading. */
struct mycl_perf_stats {
	uint64_t nr_records;
	uint64_t nr_by_type[128];	/* record types < 128 */
	uint64_t nr_unknown;		/* records of types this reader does not know */
	uint64_t lost_records;		/* LOST records */
	uint64_t lost_events;		/* events they say were lost */
	uint64_t lost_samples;		/* LOST_SAMPLES records' counts */
	uint64_t nr_throttle, nr_unthrottle;
	uint64_t nr_compressed, decompressed_bytes;
	uint64_t nr_samples;
	uint64_t nr_bad_samples;	/* samples that did not decode (skipped) */
	uint64_t nr_unordered;		/* records that arrived too late to order */
	uint64_t first_time, last_time;	/* first and last sample time seen */
	uint64_t nr_unknown_id;		/* READ values whose id names no event (not delivered) */
	uint64_t nr_sample_records;	/* SAMPLE records; nr_samples counts deliveries */
	/*
	 * Samples whose period is past MYCL_MAX_PERIOD (2^44: 4.9 hours of a
	 * 1 GHz counter, 17,600 s of cpu-clock, in one sample), which no event
	 * gives: skipped as corrupt (a damaged record, a counter that went
	 * backwards); the first such period.
	 */
	uint64_t nr_bad_periods, first_bad_period;
	uint64_t nr_time_skipped;	/* samples outside opts.time (not delivered) */
};
#define MYCL_MAX_PERIOD (1ULL << 44)

/*
 * Opens PATH ("-" for standard input) and reads its header: attrs, ids,
 * feature sections (or, in pipe mode, only the 16-byte header).  PATH may
 * be the directory perf record --threads writes: its 'data' file is the
 * header, its data.N files are read with it.
 * Returns 0 and sets *PD, or a negative code (mycl_errmsg(): the file, the
 * offset and what is wrong).  The caller owns *PD and frees it with
 * mycl_perf_data__close().
 */
int mycl_perf_data__open(const char *path, const struct mycl_perf_data_opts *opts,
			 struct mycl_perf_data **pd);

/*
 * Whether NAME (a file name, no directory) is one mycl_perf_data__open()
 * reads in a perf record --threads directory: "data", or "data.N" (decimal,
 * no leading zero but "0").  Writing such a file destroys the recording.
 */
bool mycl_perf_data__dir_member(const char *name);

/*
 * As above for an open file descriptor.  FD is consumed by the library (closed
 * by __close or on failure).  NAME is used in messages.
 */
int mycl_perf_data__open_fd(int fd, const char *name, const struct mycl_perf_data_opts *opts,
			    struct mycl_perf_data **pd);

/* Frees PD; accepts NULL. */
void mycl_perf_data__close(struct mycl_perf_data *pd);

/*
 * Reads every record once, in time order, calling OPS.  Can be called only
 * once per handle (a pipe cannot be re-read).  Returns 0, a callback's
 * non-zero value, or a negative code (mycl_errmsg() says what is wrong where).
 */
int mycl_perf_data__read(struct mycl_perf_data *pd, const struct mycl_record_ops *ops, void *ctx);

/* The file name given to __open; owned by PD. */
const char *mycl_perf_data__path(const struct mycl_perf_data *pd);

/* Header information; complete after __read in pipe mode.  Owned by PD. */
const struct mycl_perf_info *mycl_perf_data__info(const struct mycl_perf_data *pd);

size_t mycl_perf_data__nr_events(const struct mycl_perf_data *pd);
const struct mycl_event *mycl_perf_data__event(const struct mycl_perf_data *pd, size_t idx);

const struct mycl_perf_stats *mycl_perf_data__stats(const struct mycl_perf_data *pd);

/*
 * perf stat record's configuration, thread map and CPU map (CPU numbers, in
 * map order); complete after __read.  Owned by PD.
 */
const struct mycl_stat_config *mycl_perf_data__stat_config(const struct mycl_perf_data *pd);
/* Whether PD was written by perf stat record (its header's STAT feature). */
bool mycl_perf_data__is_stat(const struct mycl_perf_data *pd);
size_t mycl_perf_data__stat_threads(const struct mycl_perf_data *pd,
				    const struct mycl_stat_thread **threads);
size_t mycl_perf_data__stat_cpus(const struct mycl_perf_data *pd, const int32_t **cpus);

/* opts.time as given, or NULL; owned by PD. */
const char *mycl_perf_data__time(const struct mycl_perf_data *pd);

/* opts.time's ranges, in order (*RANGES owned by PD); 0 when every sample is read. */
size_t mycl_perf_data__time_ranges(const struct mycl_perf_data *pd,
				   const struct mycl_time_range **ranges);

/*
 * The recording's tracing data (tracepoint formats, as perf writes them), or
 * NULL; complete after __read in pipe mode.  Owned by PD.
 */
const void *mycl_perf_data__tracing_data(const struct mycl_perf_data *pd, size_t *len);

/* Name of a feature bit ("build_id", "hostname"...); NULL when unknown. */
const char *mycl_perf_feature_name(unsigned int feat);

/* Name of a record type ("SAMPLE", "MMAP2"...); NULL when unknown. */
const char *mycl_perf_record_name(uint32_t type);

#ifdef __cplusplus
}
#endif
#endif

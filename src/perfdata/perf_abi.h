/* SPDX-License-Identifier: LGPL-2.1-or-later */
/*
 * Constants of the perf.data format and of the perf_event ABI, as written by
 * the kernel and by perf (tools/perf/Documentation/perf.data-file-format.txt
 * and include/uapi/linux/perf_event.h).  Values only: the layouts are
 * described beside their decoders.
 */
#ifndef MYCL_PERF_ABI_H
#define MYCL_PERF_ABI_H

#define PERF_MAGIC2		0x32454c4946524550ULL	/* "PERFILE2" read little-endian */
#define PERF_MAGIC2_SWAPPED	0x50455246494c4532ULL
#define PERF_MAGIC1		0x454c494646524550ULL	/* "PERFFILE", legacy v1 */
#define PERF_FILE_HEADER_SIZE	104
#define PERF_PIPE_HEADER_SIZE	16

/* Record types written by the kernel. */
enum {
	REC_MMAP = 1, REC_LOST = 2, REC_COMM = 3, REC_EXIT = 4, REC_THROTTLE = 5,
	REC_UNTHROTTLE = 6, REC_FORK = 7, REC_READ = 8, REC_SAMPLE = 9, REC_MMAP2 = 10,
	REC_AUX = 11, REC_ITRACE_START = 12, REC_LOST_SAMPLES = 13, REC_SWITCH = 14,
	REC_SWITCH_CPU_WIDE = 15, REC_NAMESPACES = 16, REC_KSYMBOL = 17, REC_BPF_EVENT = 18,
	REC_CGROUP = 19, REC_TEXT_POKE = 20, REC_AUX_OUTPUT_HW_ID = 21,
	REC_KERNEL_MAX = 64,
};

/* Record types synthesized by perf itself (user records). */
enum {
	REC_HEADER_ATTR = 64, REC_HEADER_EVENT_TYPE = 65, REC_HEADER_TRACING_DATA = 66,
	REC_HEADER_BUILD_ID = 67, REC_FINISHED_ROUND = 68, REC_ID_INDEX = 69,
	REC_AUXTRACE_INFO = 70, REC_AUXTRACE = 71, REC_AUXTRACE_ERROR = 72,
	REC_THREAD_MAP = 73, REC_CPU_MAP = 74, REC_STAT_CONFIG = 75, REC_STAT = 76,
	REC_STAT_ROUND = 77, REC_EVENT_UPDATE = 78, REC_TIME_CONV = 79,
	REC_HEADER_FEATURE = 80, REC_COMPRESSED = 81, REC_FINISHED_INIT = 82,
	REC_COMPRESSED2 = 83, REC_BPF_METADATA = 84, REC_SCHEDSTAT_CPU = 85,
	REC_SCHEDSTAT_DOMAIN = 86,
	REC_USER_MAX = 87,
};

/* simpleperf (Android) uses its own record types from 32768 on. */
#define SIMPLEPERF_RECORD_FIRST 32768

/* header.misc */
#define MISC_CPUMODE_MASK	0x7
#define MISC_MMAP_DATA		(1 << 13)
#define MISC_COMM_EXEC		(1 << 13)
#define MISC_SWITCH_OUT		(1 << 13)
#define MISC_SWITCH_OUT_PREEMPT	(1 << 14)
#define MISC_MMAP_BUILD_ID	(1 << 14)
#define MISC_BUILD_ID_SIZE	(1 << 15)	/* in BUILD_ID feature entries */

/* perf_event_attr.sample_type */
#define S_IP		(1ULL << 0)
#define S_TID		(1ULL << 1)
#define S_TIME		(1ULL << 2)
#define S_ADDR		(1ULL << 3)
#define S_READ		(1ULL << 4)
#define S_CALLCHAIN	(1ULL << 5)
#define S_ID		(1ULL << 6)
#define S_CPU		(1ULL << 7)
#define S_PERIOD	(1ULL << 8)
#define S_STREAM_ID	(1ULL << 9)
#define S_RAW		(1ULL << 10)
#define S_BRANCH_STACK	(1ULL << 11)
#define S_REGS_USER	(1ULL << 12)
#define S_STACK_USER	(1ULL << 13)
#define S_WEIGHT	(1ULL << 14)
#define S_DATA_SRC	(1ULL << 15)
#define S_IDENTIFIER	(1ULL << 16)
#define S_TRANSACTION	(1ULL << 17)
#define S_REGS_INTR	(1ULL << 18)
#define S_PHYS_ADDR	(1ULL << 19)
/* data_src: the load hit a modified line in another core's cache (PERF_MEM_SNOOP_HITM) */
#define MEM_SNOOP_HITM	(1ULL << 23)
#define S_AUX		(1ULL << 20)
#define S_CGROUP	(1ULL << 21)
#define S_DATA_PAGE_SIZE (1ULL << 22)
#define S_CODE_PAGE_SIZE (1ULL << 23)
#define S_WEIGHT_STRUCT	(1ULL << 24)

/* perf_event_attr.read_format */
#define RF_TOTAL_TIME_ENABLED	(1ULL << 0)
#define RF_TOTAL_TIME_RUNNING	(1ULL << 1)
#define RF_ID			(1ULL << 2)
#define RF_GROUP		(1ULL << 3)
#define RF_LOST			(1ULL << 4)

/* perf_event_attr.branch_sample_type */
#define BR_HW_INDEX		(1ULL << 17)
#define BR_COUNTERS		(1ULL << 19)

/* Bits of the attr flag word (bit numbers as declared, first bitfield = 0). */
#define AF_INHERIT		1
#define AF_FREQ			10
#define AF_SAMPLE_ID_ALL	18
#define AF_EXCLUDE_USER		4
#define AF_EXCLUDE_KERNEL	5
#define AF_EXCLUDE_HV		6
#define AF_PRECISE_LO		15
#define AF_EXCLUDE_HOST		19
#define AF_EXCLUDE_GUEST	20

/* perf_event_attr.type */
enum { PT_HARDWARE = 0, PT_SOFTWARE = 1, PT_TRACEPOINT = 2, PT_HW_CACHE = 3,
       PT_RAW = 4, PT_BREAKPOINT = 5 };

/* Feature bits of the file header. */
enum {
	FEAT_TRACING_DATA = 1, FEAT_BUILD_ID = 2, FEAT_HOSTNAME = 3, FEAT_OSRELEASE = 4,
	FEAT_VERSION = 5, FEAT_ARCH = 6, FEAT_NRCPUS = 7, FEAT_CPUDESC = 8, FEAT_CPUID = 9,
	FEAT_TOTAL_MEM = 10, FEAT_CMDLINE = 11, FEAT_EVENT_DESC = 12, FEAT_CPU_TOPOLOGY = 13,
	FEAT_NUMA_TOPOLOGY = 14, FEAT_BRANCH_STACK = 15, FEAT_PMU_MAPPINGS = 16,
	FEAT_GROUP_DESC = 17, FEAT_AUXTRACE = 18, FEAT_STAT = 19, FEAT_CACHE = 20,
	FEAT_SAMPLE_TIME = 21, FEAT_MEM_TOPOLOGY = 22, FEAT_CLOCKID = 23, FEAT_DIR_FORMAT = 24,
	FEAT_BPF_PROG_INFO = 25, FEAT_BPF_BTF = 26, FEAT_COMPRESSED = 27,
	FEAT_CPU_PMU_CAPS = 28, FEAT_CLOCK_DATA = 29, FEAT_HYBRID_TOPOLOGY = 30,
	FEAT_PMU_CAPS = 31, FEAT_LAST_KNOWN = 32,
	FEAT_BITS = 256,
};

#endif

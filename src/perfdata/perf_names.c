/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* The names of perf's record types and header features (the bottom of the reader). */
#include <stdint.h>
#include "perf_abi.h"
#include "perfdata_priv.h"

static const char *const record_names[REC_USER_MAX] = {
	[REC_MMAP] = "MMAP", [REC_LOST] = "LOST", [REC_COMM] = "COMM", [REC_EXIT] = "EXIT",
	[REC_THROTTLE] = "THROTTLE", [REC_UNTHROTTLE] = "UNTHROTTLE", [REC_FORK] = "FORK",
	[REC_READ] = "READ", [REC_SAMPLE] = "SAMPLE", [REC_MMAP2] = "MMAP2", [REC_AUX] = "AUX",
	[REC_ITRACE_START] = "ITRACE_START", [REC_LOST_SAMPLES] = "LOST_SAMPLES",
	[REC_SWITCH] = "SWITCH", [REC_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[REC_NAMESPACES] = "NAMESPACES", [REC_KSYMBOL] = "KSYMBOL", [REC_BPF_EVENT] = "BPF_EVENT",
	[REC_CGROUP] = "CGROUP", [REC_TEXT_POKE] = "TEXT_POKE",
	[REC_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID", [REC_HEADER_ATTR] = "HEADER_ATTR",
	[REC_HEADER_EVENT_TYPE] = "HEADER_EVENT_TYPE",
	[REC_HEADER_TRACING_DATA] = "HEADER_TRACING_DATA",
	[REC_HEADER_BUILD_ID] = "HEADER_BUILD_ID", [REC_FINISHED_ROUND] = "FINISHED_ROUND",
	[REC_ID_INDEX] = "ID_INDEX", [REC_AUXTRACE_INFO] = "AUXTRACE_INFO",
	[REC_AUXTRACE] = "AUXTRACE", [REC_AUXTRACE_ERROR] = "AUXTRACE_ERROR",
	[REC_THREAD_MAP] = "THREAD_MAP", [REC_CPU_MAP] = "CPU_MAP",
	[REC_STAT_CONFIG] = "STAT_CONFIG", [REC_STAT] = "STAT", [REC_STAT_ROUND] = "STAT_ROUND",
	[REC_EVENT_UPDATE] = "EVENT_UPDATE", [REC_TIME_CONV] = "TIME_CONV",
	[REC_HEADER_FEATURE] = "HEADER_FEATURE", [REC_COMPRESSED] = "COMPRESSED",
	[REC_FINISHED_INIT] = "FINISHED_INIT", [REC_COMPRESSED2] = "COMPRESSED2",
	[REC_BPF_METADATA] = "BPF_METADATA", [REC_SCHEDSTAT_CPU] = "SCHEDSTAT_CPU",
	[REC_SCHEDSTAT_DOMAIN] = "SCHEDSTAT_DOMAIN",
};

MYCL_API const char *mycl_perf_record_name(uint32_t type)
{
	return type < REC_USER_MAX ? record_names[type] : NULL;
}

static const char *const feature_names[FEAT_LAST_KNOWN] = {
	[FEAT_TRACING_DATA] = "tracing_data", [FEAT_BUILD_ID] = "build_id",
	[FEAT_HOSTNAME] = "hostname", [FEAT_OSRELEASE] = "osrelease",
	[FEAT_VERSION] = "version", [FEAT_ARCH] = "arch", [FEAT_NRCPUS] = "nrcpus",
	[FEAT_CPUDESC] = "cpudesc", [FEAT_CPUID] = "cpuid", [FEAT_TOTAL_MEM] = "total_mem",
	[FEAT_CMDLINE] = "cmdline", [FEAT_EVENT_DESC] = "event_desc",
	[FEAT_CPU_TOPOLOGY] = "cpu_topology", [FEAT_NUMA_TOPOLOGY] = "numa_topology",
	[FEAT_BRANCH_STACK] = "branch_stack", [FEAT_PMU_MAPPINGS] = "pmu_mappings",
	[FEAT_GROUP_DESC] = "group_desc", [FEAT_AUXTRACE] = "auxtrace", [FEAT_STAT] = "stat",
	[FEAT_CACHE] = "cache", [FEAT_SAMPLE_TIME] = "sample_time",
	[FEAT_MEM_TOPOLOGY] = "mem_topology", [FEAT_CLOCKID] = "clockid",
	[FEAT_DIR_FORMAT] = "dir_format", [FEAT_BPF_PROG_INFO] = "bpf_prog_info",
	[FEAT_BPF_BTF] = "bpf_btf", [FEAT_COMPRESSED] = "compressed",
	[FEAT_CPU_PMU_CAPS] = "cpu_pmu_caps", [FEAT_CLOCK_DATA] = "clock_data",
	[FEAT_HYBRID_TOPOLOGY] = "hybrid_topology", [FEAT_PMU_CAPS] = "pmu_caps",
};

MYCL_API const char *mycl_perf_feature_name(unsigned int feat)
{
	return feat < FEAT_LAST_KNOWN ? feature_names[feat] : NULL;
}

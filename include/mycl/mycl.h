/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* mycl: perf recordings and ELF binaries turned into findings. */
#ifndef MYCL_MYCL_H
#define MYCL_MYCL_H

#include "mycl/error.h"
#include "mycl/log.h"
#include "mycl/perf_data.h"
#include "mycl/profile.h"
#include "mycl/report.h"
#include "mycl/annotate.h"
#include "mycl/share.h"
#include "mycl/diff.h"
#include "mycl/locks.h"
#include "mycl/build.h"
#include "mycl/archive.h"
#include "mycl/tuning.h"
#include "mycl/stat.h"

#endif

// SPDX-License-Identifier: LGPL-2.1-or-later
// Decodes a gzipped pprof profile with the npm package pprof-format (an
// implementation independent of mycl's) and prints what the checks compare,
// as JSON: totals per sample type, per pid label, locations with inlined lines,
// mappings with their build-ids.
// usage: node pprof.mjs FILE
import { Profile } from 'pprof-format';
import fs from 'node:fs';
import zlib from 'node:zlib';

const p = Profile.decode(zlib.gunzipSync(fs.readFileSync(process.argv[2])));
const str = i => p.stringTable.strings[Number(i)];
const totals = p.sampleType.map(() => 0);
const byPid = {};
for (const s of p.sample) {
	s.value.forEach((v, i) => { totals[i] += Number(v); });
	for (const l of s.label)
		if (str(l.key) === 'pid') byPid[Number(l.num)] = (byPid[Number(l.num)] || 0) + Number(s.value[0]);
}
const fnName = new Map(p.function.map(f => [Number(f.id), str(f.name)]));
console.log(JSON.stringify({
	types: p.sampleType.map(t => [str(t.type), str(t.unit)]),
	totals,
	byPid,
	samples: p.sample.length,
	inlined: p.location.filter(l => l.line.length > 1)
		.map(l => l.line.map(x => fnName.get(Number(x.functionId)))),
	mappings: p.mapping.map(m => ({ file: str(m.filename), buildId: str(m.buildId) })),
	defaultType: str(p.defaultSampleType),
}));

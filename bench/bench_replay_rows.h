// The replay and zipf rows of ssdlab_bench (issue 13), included inside ssdlab_bench.cpp's
// namespace after its helpers (job, simulate_phases, age_direct, phase_json, drive_json).
//
//   replay      closed-loop replay (QD32) of a 10 M-line MSR trace of 4 KiB random requests,
//               half reads (bench/make_msr_trace.sh, made by bench/run), full 64 GiB drive
//   replay_job  the same mix as a synthetic randrw job: bench/run's table prints the replay's
//               CPU cost per request over this row's (issue 13: at most 1.5x)
//   zipf        4 KiB random writes with random_distribution=zipf:1.2, QD32, full drive (GC active)
#pragma once

// One measured phase on the 64 GiB drive after direct aging (a full fill, then `overwrite` x
// capacity of random overwrites): the row's JSON line.
Json aged_row(const Options& o, const char* workload, const char* row, const PhaseSpec& phase, double overwrite) {
  const DriveConfig c = load_drive_config(o.drives + "/bench64g.yaml", o.params);
  Json line;
  line["workload"] = workload;
  line["row"] = row;
  line["drive"] = drive_json(c);
  Json pre;
  const auto results = simulate_phases(c, {phase}, o.seed, [&](ScenarioRunner& r) {
    age_direct(r, 1.0, o.overwrite >= 0 ? o.overwrite : overwrite, o.seed, o.check, pre);
  });
  line.update(phase_json(results.back()));
  line.erase("name");
  line["precondition"] = pre;
  line["peak_rss_mib"] = double(peak_rss_kib()) / 1024.0;
  line["target"] = "-";
  line["meets_target"] = true;
  return line;
}

Json row_replay(const Options& o) {
  if (o.trace.empty()) throw std::runtime_error("replay: needs --trace FILE (bench/run makes one)");
  PhaseSpec replay;
  replay.name = "replay_msr_qd32";
  replay.kind = PhaseKind::kReplay;
  replay.replay.trace = o.trace;
  replay.replay.format = "msr";
  replay.replay.iodepth = 32;
  Json line = aged_row(o, "replay", "MSR trace replay, closed loop QD32, 4 KiB random 50% reads, full 64 GiB drive",
                       replay, 0.0);
  line["trace"] = o.trace;
  return line;
}

Json row_replay_job(const Options& o) {
  const std::uint64_t n = o.requests ? o.requests : 10000000;
  PhaseSpec p = job("randrw_4k_qd32", RwMode::kRandRw, 4096, 32, n * 4096);
  p.job.rwmixread = 50;
  p.job.norandommap = true;  // the trace's offsets are independent draws too
  return aged_row(o, "replay_job", "the replay row's mix as a job: randrw 4 KiB, rwmixread 50, QD32", p, 0.0);
}

Json row_zipf(const Options& o) {
  const std::uint64_t n = o.requests ? o.requests : 2000000;
  PhaseSpec p = job("randwrite_zipf1.2_qd32", RwMode::kRandWrite, 4096, 32, n * 4096);
  p.job.distribution.kind = RandomDist::kZipf;
  p.job.distribution.param = 1.2;
  return aged_row(o, "zipf", "4 KiB random writes, random_distribution=zipf:1.2, QD32, full 64 GiB drive", p, 1.0);
}

// libFuzzer target: fio job files (syntax, keys, values), their JobSpec and the generator they
// drive: bad input is a ConfigError or std::invalid_argument, in bounded time and memory.
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "base/config/config_loader.h"
#include "base/config/fio_job.h"
#include "host/workload/job_generator.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 16384) return 0;
  ssdlab::FioParseOptions options;
  options.lenient = size % 2 == 1;
  options.getenv = [](const std::string& name, std::string& value) {
    value = "4k";
    return name == "BS";
  };
  try {
    const ssdlab::FioJobFile file =
        ssdlab::parse_fio_job_file(std::string(reinterpret_cast<const char*>(data), size), "fuzz.fio", options);
    for (const ssdlab::FioJob& job : file.jobs) {
      const ssdlab::FioPhase phase = ssdlab::fio_job_to_phase(job, "fuzz.fio");
      try {
        ssdlab::JobGenerator gen(phase.job, 1ull << 30, 1);
        ssdlab::IoSpec io;
        for (int i = 0; i < 64 && gen.next(io); ++i) {
          if ((io.lba + io.sectors) * ssdlab::kSectorBytes > (1ull << 30)) __builtin_trap();  // past the drive
        }
      } catch (const std::invalid_argument&) {
        // a job that does not fit the drive: refused with a message
      }
    }
    (void)ssdlab::fio_scenario(file, "drive.yaml");
  } catch (const ssdlab::ConfigError&) {
    // rejected with a located message: fine
  }
  return 0;
}

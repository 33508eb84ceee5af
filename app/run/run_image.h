// `ssdlab run --load-image FILE` and `--save-image [PHASE=]FILE`: start from a saved drive
// instead of a fresh one, and save the drive after a phase (the last by default), in the drive
// image format of `serve --image` (controller/ftl/drive_image.h). A run carries no data, so its
// images hold the FTL state alone. `ssdlab sweep` ages a drive once this way and starts every
// point that shares it from the image.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/config/config.h"
#include "base/config/scenario.h"

namespace CLI {
class App;
}

namespace ssdlab {

class ScenarioRunner;
struct PhaseResult;

struct RunImageOptions {
  std::string load;               // --load-image FILE
  std::vector<std::string> save;  // --save-image [PHASE=]FILE, each
  bool any() const { return !load.empty() || !save.empty(); }
};

// Adds --load-image and --save-image to `run`.
void add_run_image_options(CLI::App& run, RunImageOptions& options);

// Built once the runner exists, before the simulation starts: loads the image (ConfigError when
// it cannot be used: another drive config, naming the first differing line, or a damaged file)
// and checks the phases named by --save-image (ConfigError naming the scenario's phases).
class RunImages {
 public:
  RunImages(const RunImageOptions& options, const ScenarioSpec& scenario, const DriveConfig& config,
            ScenarioRunner& runner);
  ~RunImages();
  // Throws std::runtime_error when a save failed (after the simulation).
  void finish();
  // "image FILE saved after phase P (N KiB)" lines, for the run's output.
  const std::string& note() const { return m_note; }

 private:
  void phase_done(const PhaseResult& r);
  struct Save {
    std::size_t phase;
    std::string path;
  };
  std::vector<Save> m_saves;
  const DriveConfig& m_config;
  ScenarioRunner& m_runner;
  std::size_t m_phases_done = 0;
  std::string m_error, m_note;
};

}  // namespace ssdlab

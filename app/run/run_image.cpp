#include "app/run/run_image.h"

#include <CLI/CLI.hpp>
#include <algorithm>

#include "app/run/scenario_runner.h"
#include "base/config/config_loader.h"
#include "base/config/config_yaml.h"
#include "controller/ftl/drive_image.h"

namespace ssdlab {

void add_run_image_options(CLI::App& run, RunImageOptions& options) {
  run.add_option("--load-image", options.load,
                 "start from the drive saved in FILE (--save-image, serve --image) instead of a fresh drive; "
                 "its drive config must be this run's");
  run.add_option("--save-image", options.save,
                 "[PHASE=]FILE: save the drive after the last phase (or after PHASE) into FILE, in the format of "
                 "serve --image");
}

RunImages::RunImages(const RunImageOptions& options, const ScenarioSpec& scenario, const DriveConfig& config,
                     ScenarioRunner& runner)
    : m_config(config), m_runner(runner) {
  for (const std::string& text : options.save) {
    const std::size_t eq = text.find('=');
    Save save{scenario.phases.size() - 1, text};
    if (eq != std::string::npos) {
      const std::string phase = text.substr(0, eq);
      save.path = text.substr(eq + 1);
      std::vector<std::string> names;
      for (const PhaseSpec& p : scenario.phases) names.push_back(p.name);
      const auto it = std::find(names.begin(), names.end(), phase);
      if (it == names.end())
        throw ConfigError("--save-image " + text + ": the scenario has no phase '" + phase + "'" +
                          config_detail::did_you_mean(phase, names));
      save.phase = std::size_t(it - names.begin());
    }
    if (save.path.empty()) throw ConfigError("--save-image " + text + ": expected [PHASE=]FILE");
    m_saves.push_back(save);
  }
  if (!options.load.empty()) {
    PageStore scratch(runner.ssd.controller.ftl().geometry());  // a run keeps no data
    try {
      load_image(options.load, config, runner.ssd.control().untimed_ftl(),
                 scratch);  // before the start: mapping_loaded() runs at start_of_simulation
    } catch (const ImageError& e) {
      throw ConfigError(std::string("--load-image: ") + e.what());
    }
  }
  if (m_saves.empty()) return;
  auto before = std::move(runner.on_phase_done);
  runner.on_phase_done = [this, before](const PhaseResult& r) {
    if (before) before(r);
    phase_done(r);
  };
}

RunImages::~RunImages() = default;

// On the runner's thread, between two phases: the buffer is on flash (each phase drains it), so
// the FTL state is the drive's. Nothing is simulated meanwhile. Errors wait for finish(): an
// exception must not unwind through the SystemC thread.
void RunImages::phase_done(const PhaseResult& r) {
  const std::size_t index = m_phases_done++;
  for (const Save& s : m_saves) {
    if (s.phase != index) continue;
    try {
      const Ftl& ftl = m_runner.ssd.controller.ftl();
      const ImageInfo info = save_image(s.path, m_config, ftl, PageStore(ftl.geometry()));
      m_note += "image " + s.path + " saved after phase '" + r.name + "' (" +
                std::to_string((info.file_bytes + 1023) / 1024) + " KiB)\n";
    } catch (const std::exception& e) {
      if (m_error.empty()) m_error = "--save-image " + s.path + ": " + e.what();
    }
  }
}

void RunImages::finish() {
  if (!m_error.empty()) throw std::runtime_error(m_error);
}

}  // namespace ssdlab

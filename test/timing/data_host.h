// A host for timing tests of a drive that carries data: a script in an SC_THREAD submits ATA
// commands to the drive's HBA one after another and waits for them (no workload generator).
#pragma once

#include <algorithm>
#include <functional>
#include <vector>

#include "host/sata/ahci_hba.h"
#include "model/ssd.h"

namespace ssdlab::test {

struct Host : sc_core::sc_module, IoCompletionIf {
  SC_HAS_PROCESS(Host);
  Ssd& ssd;
  sc_core::sc_event done_ev;
  std::vector<IoRequest*> done;
  std::function<void(Host&)> script;
  Host(sc_core::sc_module_name n, Ssd& s, std::function<void(Host&)> f) : sc_module(n), ssd(s), script(std::move(f)) {
    ssd.hba.completion(*this);
    SC_THREAD(run);
  }
  void io_done(IoRequest* r) override {
    done.push_back(r);
    Timeline::notify(done_ev);
  }
  void run() { script(*this); }
  void submit(IoRequest& r) { ssd.hba.submit(&r); }
  void wait_for(IoRequest& r) {
    while (std::find(done.begin(), done.end(), &r) == done.end()) sc_core::wait(done_ev);
    done.erase(std::find(done.begin(), done.end(), &r));
  }
  // Submits `r` and waits for it; returns its error flag.
  bool run_one(IoRequest& r) {
    submit(r);
    wait_for(r);
    return r.error;
  }
};

inline IoRequest req(AtaCommand c, Lba lba, std::uint32_t sectors, std::uint8_t* data, bool fua = false) {
  IoRequest r;
  r.command = c;
  r.lba = lba;
  r.sectors = sectors;
  r.data = data;
  r.fua = fua;
  return r;
}

}  // namespace ssdlab::test

#include "app/instruments/chrome_trace.h"

#include "host/io_request.h"
#include "model/ssd.h"

namespace ssdlab {

namespace {

const char* command_name(AtaCommand c) {
  switch (c) {
    case AtaCommand::kReadFpdma:
      return "read";
    case AtaCommand::kWriteFpdma:
      return "write";
    case AtaCommand::kDataSetManagement:
      return "trim";
    case AtaCommand::kFlushCache:
      return "flush";
  }
  return "command";
}

const char* fis_name(FisKind k) {
  switch (k) {
    case FisKind::kCommand:
      return "command FIS";
    case FisKind::kDataToDevice:
      return "data to device";
    case FisKind::kDataToHost:
      return "data to host";
    case FisKind::kSetDeviceBits:
      return "set device bits";
  }
  return "FIS";
}

// Name, category and colour of a flash operation by origin and kind.
struct OpLook {
  const char* name;
  const char* cat;
  const char* cname;
};
OpLook op_look(const NandOp& op) {
  static constexpr OpLook kLooks[3][3] = {
      {{"read", "host", "good"}, {"program", "host", "good"}, {"erase", "host", "good"}},
      {{"GC read", "gc", "terrible"}, {"GC program", "gc", "terrible"}, {"GC erase", "gc", "terrible"}},
      {{"map read", "map", "yellow"}, {"map program", "map", "yellow"}, {"map erase", "map", "yellow"}}};
  return kLooks[static_cast<unsigned>(op.origin) % 3][static_cast<unsigned>(op.kind) % 3];
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out + "\"";
}

}  // namespace

ChromeTrace::ChromeTrace(const std::string& path, Ssd& ssd, TraceWindow window)
    : m_out(path), m_ssd(ssd), m_window(window), m_commands(kCommands) {
  m_out.put("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"generator\":\"ssdlab\"},\"traceEvents\":[\n");
  metadata("process_name", 0, "name", json_string(std::string("ssdlab drive ") + ssd.name()));
  thread(kLinkTid, "SATA link", 0);
  thread(kFirmwareTid, "firmware CPU", 1);
  for (std::uint32_t t = 0; t < ssd.hba.tags(); ++t) thread(kTagTid0 + t, "NCQ tag " + std::to_string(t), 10 + t);
  const std::uint32_t channels = ssd.flash.channels();
  for (std::uint32_t c = 0; c < channels; ++c) thread(kChannelTid0 + c, "channel " + std::to_string(c), 100 + c);
  for (std::uint32_t d = 0; d < ssd.flash.dies(); ++d) {
    thread(kDieTid0 + d, "die " + std::to_string(d) + " (channel " + std::to_string(d % channels) + ")", 1000 + d);
  }
}

void ChromeTrace::attach() {
  m_ssd.add_probe(*this);
  m_attached = true;
}

void ChromeTrace::metadata(const char* what, std::uint32_t tid, const std::string& key, const std::string& value) {
  if (m_events++) m_out.put(",\n");
  m_out.put("{\"ph\":\"M\",\"pid\":1,\"tid\":");
  m_out.put_uint(tid);
  m_out.put(",\"name\":\"");
  m_out.put(what);
  m_out.put("\",\"args\":{" + json_string(key) + ":" + value + "}}");
}

void ChromeTrace::thread(std::uint32_t tid, const std::string& name, std::uint32_t sort) {
  metadata("thread_name", tid, "name", json_string(name));
  metadata("thread_sort_index", tid, "sort_index", std::to_string(sort));
}

void ChromeTrace::begin_event(const char* ph, const char* name, const char* cat, std::uint32_t tid, Picos ts) {
  if (m_events++) m_out.put(",\n");
  m_out.put("{\"ph\":\"");
  m_out.put(ph);
  m_out.put("\",\"name\":\"");
  m_out.put(name);
  m_out.put("\",\"cat\":\"");
  m_out.put(cat);
  m_out.put("\",\"pid\":1,\"tid\":");
  m_out.put_uint(tid);
  m_out.put(",\"ts\":");
  m_out.put_micros(ts);
  m_first_arg = true;
}

void ChromeTrace::slice(const char* name, const char* cat, std::uint32_t tid, Picos start, Picos end,
                        const char* cname) {
  begin_event("X", name, cat, tid, start);
  m_out.put(",\"dur\":");
  m_out.put_micros(end - start);
  if (cname) {
    m_out.put(",\"cname\":\"");
    m_out.put(cname);
    m_out.put('"');
  }
}

void ChromeTrace::arg(const char* key, std::uint64_t v) {
  m_out.put(m_first_arg ? ",\"args\":{\"" : ",\"");
  m_first_arg = false;
  m_out.put(key);
  m_out.put("\":");
  m_out.put_uint(v);
}

void ChromeTrace::arg_us(const char* key, Picos v) {
  m_out.put(m_first_arg ? ",\"args\":{\"" : ",\"");
  m_first_arg = false;
  m_out.put(key);
  m_out.put("\":");
  m_out.put_micros(v);
}

void ChromeTrace::end_event() { m_out.put(m_first_arg ? "}" : "}}"); }

void ChromeTrace::nand_op(const NandOp& op, const OpTiming& t, const std::uint64_t* serials, std::uint32_t count) {
  if (!m_window.keeps(t.started, t.finished)) return;
  const OpLook look = op_look(op);
  slice(look.name, look.cat, kDieTid0 + op.die, t.started, t.finished, look.cname);
  arg("block", op.block);
  arg("page", op.page);
  arg("bytes", op.bytes);
  arg_us("die_queue_us", t.started - t.submitted);
  arg_us("array_us", t.array_end - t.array_start);
  if (t.behind[1]) arg_us("behind_gc_us", t.behind[1]);
  if (t.behind[2]) arg_us("behind_map_us", t.behind[2]);
  if (count) arg("commands", count);
  end_event();
  for (std::uint32_t i = 0; i < count; ++i) {
    const Command& c = m_commands[serials[i] % kCommands];
    if (c.serial != serials[i] || serials[i] == 0) continue;  // forgotten (or never seen)
    // Both ends kept: the command's slice holds firmware_start and ends at `completed` (or
    // later than now, the op's end, while in flight).
    if (m_window.on && (c.firmware_start > m_window.end || (c.completed && c.completed < m_window.start))) continue;
    flow(c, op.die, t.started + (t.finished - t.started) / 2);
  }
}

// The start sits inside the command's slice (its firmware start), the end ("bp":"e": bound to
// the enclosing slice) in the middle of the op's, so neither depends on how a viewer orders
// events with equal time stamps.
void ChromeTrace::flow(const Command& from, std::uint32_t die, Picos at) {
  const std::uint64_t id = ++m_flows;
  begin_event("s", "causes", "flow", kTagTid0 + from.tag, from.firmware_start);
  m_out.put(",\"id\":");
  m_out.put_uint(id);
  end_event();
  begin_event("f", "causes", "flow", kDieTid0 + die, at);
  m_out.put(",\"bp\":\"e\",\"id\":");
  m_out.put_uint(id);
  end_event();
}

void ChromeTrace::bus(std::uint32_t channel, std::uint32_t die, Picos start, Picos end) {
  if (!m_window.keeps(start, end)) return;
  slice("transfer", "bus", kChannelTid0 + channel, start, end, nullptr);
  arg("die", die);
  end_event();
}

void ChromeTrace::fis(const Fis& fis, Picos start, Picos end) {
  if (!m_window.keeps(start, end)) return;
  slice(fis_name(fis.kind), "link", kLinkTid, start, end, nullptr);
  arg("tag", fis.tag);
  if (fis.kind == FisKind::kCommand) {
    arg("lba", fis.lba);
    arg("sectors", fis.sectors);
  }
  if (fis.data_bytes) arg("bytes", fis.data_bytes);
  end_event();
}

void ChromeTrace::firmware(std::uint64_t serial, std::uint8_t tag, AtaCommand command, Picos start, Picos end) {
  Command& c = m_commands[serial % kCommands];
  c = Command{serial, tag, start, 0};
  if (!m_window.keeps(start, end)) return;
  slice(command_name(command), "firmware", kFirmwareTid, start, end, nullptr);
  arg("serial", serial);
  arg("tag", tag);
  end_event();
}

void ChromeTrace::gc_victim(std::uint32_t die, std::uint32_t block, std::uint32_t valid_units) {
  const Picos now = now_picos();
  if (!m_window.keeps(now, now)) return;
  begin_event("i", "GC victim", "gc", kDieTid0 + die, now);
  m_out.put(",\"s\":\"t\",\"cname\":\"terrible\"");
  arg("block", block);
  arg("valid_units", valid_units);
  end_event();
}

void ChromeTrace::command_done(const IoRequest& r) {
  const std::uint64_t serial = r.anatomy.device_serial;
  Command& c = m_commands[serial % kCommands];
  if (serial && c.serial == serial) c.completed = r.completed_ps;
  if (!m_window.keeps(r.tagged_ps, r.completed_ps)) return;
  const bool behind_gc = r.anatomy[Part::kDieWaitGc] > 0;
  const char* name = command_name(r.command);
  std::string gc_name;
  if (behind_gc) name = (gc_name = std::string(name) + " (behind GC)").c_str();
  slice(name, behind_gc ? "host,gc" : "host", kTagTid0 + r.tag, r.tagged_ps, r.completed_ps,
        r.error     ? "terrible"
        : behind_gc ? "bad"
                    : nullptr);
  arg("lba", r.lba);
  arg("sectors", r.sectors);
  if (serial) arg("serial", serial);
  arg_us("latency_us", r.completed_ps - r.issued_ps);
  for (std::size_t p = 0; p < kParts; ++p) {
    if (r.anatomy.part[p]) arg_us(part_name(static_cast<Part>(p)), r.anatomy.part[p]);
  }
  if (r.error) arg("error", 1);
  end_event();
}

void ChromeTrace::close() {
  if (m_closed) return;
  m_closed = true;
  m_out.put("\n]}\n");
  m_out.close();
}

}  // namespace ssdlab

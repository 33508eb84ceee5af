#include "controller/ftl/drive_image.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <streambuf>
#include <vector>

#include "base/config/config_loader.h"
#include "controller/ftl/ftl_image.h"

namespace ssdlab {

namespace {

using image::SectionReader;
using image::SectionWriter;

constexpr char kMagic[8] = {'S', 'S', 'D', 'L', 'I', 'M', 'G', '1'};
constexpr char kEndMagic[8] = {'S', 'S', 'D', 'L', 'E', 'N', 'D', '1'};
constexpr std::uint32_t kByteOrder = 0x01020304u;
constexpr std::uint32_t kVersion = 2;  // 1: no sections, no checksums
constexpr std::uint64_t kMaxConfigBytes = 1 << 20;
constexpr std::uint64_t kDataHeaderBytes = 4 + 8 + 8;
constexpr std::uint64_t kFrameBytes = 4 + 8 + 8;  // a section's tag, length and checksum

// A file being written through a FILE* (closed on every path), as a std::ostream whose write
// errors throw with errno.
class OutFile : private std::streambuf {
 public:
  explicit OutFile(const std::string& path) : m_path(path), m_f(std::fopen(path.c_str(), "wb")), m_stream(this) {
    if (!m_f) fail("cannot create");
    m_stream.exceptions(std::ios::badbit);  // rethrows what xsputn throws
  }
  ~OutFile() override {
    if (m_f) std::fclose(m_f);
  }
  std::ostream& stream() { return m_stream; }
  std::uint64_t bytes() const { return m_bytes; }
  // Flushes, fsyncs and closes.
  void commit() {
    if (std::fflush(m_f) != 0 || ::fsync(fileno(m_f)) != 0) fail("cannot write");
    FILE* f = m_f;
    m_f = nullptr;
    if (std::fclose(f) != 0) fail("cannot close");
  }

 private:
  std::streamsize xsputn(const char* p, std::streamsize n) override {
    if (n && std::fwrite(p, 1, std::size_t(n), m_f) != std::size_t(n)) fail("cannot write");
    m_bytes += std::uint64_t(n);
    return n;
  }
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    xsputn(&ch, 1);
    return c;
  }
  [[noreturn]] void fail(const char* what) {
    throw std::runtime_error(std::string(what) + " " + m_path + ": " + std::strerror(errno));
  }
  std::string m_path;
  FILE* m_f;
  std::ostream m_stream;
  std::uint64_t m_bytes = 0;
};

// A stream buffer that hands every byte written to `sink(const char*, std::size_t)`.
template <class Sink>
class ForwardBuf : public std::streambuf {
 public:
  explicit ForwardBuf(Sink sink) : m_sink(std::move(sink)) {}

 private:
  std::streamsize xsputn(const char* p, std::streamsize n) override {
    m_sink(p, std::size_t(n));
    return n;
  }
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    m_sink(&ch, 1);
    return c;
  }
  Sink m_sink;
};

// The FTL's state as the payload of a section: its length first (a pass that only counts), then
// written straight into the section, never held in memory (a 512 GiB drive's is 1 GiB).
void write_ftl_section(std::ostream& out, const Ftl& ftl) {
  std::uint64_t length = 0;
  {
    ForwardBuf counter([&length](const char*, std::size_t n) { length += n; });
    std::ostream counted(&counter);
    ftl.save(counted);
  }
  SectionWriter s(out, "FTL ", length);
  ForwardBuf payload([&s](const char* p, std::size_t n) { s.write(p, n); });
  std::ostream in_section(&payload);
  in_section.exceptions(std::ios::badbit);  // rethrows what the section or the file throws
  ftl.save(in_section);
  s.finish();
}

void write_section(std::ostream& out, const char (&tag)[5], const std::string& bytes) {
  SectionWriter s(out, tag, bytes.size());
  s.write(bytes.data(), bytes.size());
  s.finish();
}

std::string read_section(std::istream& in, const char (&tag)[5], const char* name, std::uint64_t max_len, bool verify) {
  SectionReader s(in, tag, name, 0, max_len, verify);
  std::string bytes(s.length(), '\0');
  s.read(&bytes[0], bytes.size());
  s.finish();
  return bytes;
}

// "line N: image has 'X', config has 'Y'" for the first line where two configs differ.
std::string first_difference(const std::string& saved, const std::string& current) {
  std::istringstream a(saved), b(current);
  std::string la, lb;
  for (int line = 1;; ++line) {
    const bool ha = static_cast<bool>(std::getline(a, la));
    const bool hb = static_cast<bool>(std::getline(b, lb));
    if (!ha && !hb) return "they differ";
    if (!ha) la = "(end)";
    if (!hb) lb = "(end)";
    if (!ha || !hb || la != lb) {
      return "effective config line " + std::to_string(line) + ": image has '" + la + "', this config has '" + lb + "'";
    }
  }
}

void check_preamble(std::istream& in, const std::string& name) {
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, kMagic, 8) != 0)
    throw ImageError(name + " is not an ssdlab drive image");
  std::uint32_t order = 0, version = 0;
  if (!in.read(reinterpret_cast<char*>(&order), 4) || !in.read(reinterpret_cast<char*>(&version), 4)) {
    throw ImageError(name + ": image ends inside its header (truncated)");
  }
  if (order != kByteOrder) throw ImageError(name + ": image of a machine of the other byte order");
  if (version != kVersion) {
    throw ImageError(name + ": image format version " + std::to_string(version) +
                     " is not supported, this ssdlab reads version " + std::to_string(kVersion) +
                     (version < kVersion ? " (older images carry no checksums)" : "") +
                     ": delete it or serve another --image");
  }
}

// The stored blocks, into `fresh` (a store of the drive's geometry, empty).
void check_interrupted(const std::atomic<bool>* interrupted) {
  if (interrupted && interrupted->load(std::memory_order_relaxed)) throw ImageLoadInterrupted("image load interrupted");
}

std::uint64_t read_blocks(std::istream& in, const Geometry& g, PageStore& fresh, bool verify,
                          const std::atomic<bool>* interrupted) {
  SectionReader h(in, "DHDR", "flash data header", kDataHeaderBytes, kDataHeaderBytes, verify);
  h.verify_first();
  const auto blocks = h.get<std::uint32_t>();
  const auto block_bytes = h.get<std::uint64_t>();
  const auto count = h.get<std::uint64_t>();
  h.finish();
  if (blocks != g.blocks || block_bytes != fresh.block_bytes()) {
    h.fail("a flash array of " + std::to_string(blocks) + " blocks of " + std::to_string(block_bytes) +
           " bytes, this drive has " + std::to_string(g.blocks) + " of " + std::to_string(fresh.block_bytes()));
  }
  const std::uint64_t record = kFrameBytes + 4 + block_bytes;
  const std::uint64_t left = image::bytes_left(in);
  if (count > blocks || (left != image::kUnknownSize && count > left / record)) {
    h.fail(std::to_string(count) + " stored blocks claimed, the drive has " + std::to_string(blocks) +
           (left != image::kUnknownSize ? " and the rest of the image holds " + std::to_string(left / record) : ""));
  }
  for (std::uint64_t i = 0; i < count; ++i) {
    check_interrupted(interrupted);
    SectionReader s(in, "BLCK", "stored block", 4 + block_bytes, 4 + block_bytes, verify, std::int64_t(i));
    s.verify_first();
    const auto b = s.get<std::uint32_t>();
    if (b >= blocks) s.fail("names block " + std::to_string(b) + ", the drive has " + std::to_string(blocks));
    if (fresh.block_data(b)) s.fail("names block " + std::to_string(b) + " a second time");
    s.read(fresh.block_data_for_write(b), block_bytes);
    s.finish();
  }
  return count;
}

// `base`: the first byte of the memory `in` reads, when it reads memory (a mapped file): the FTL
// state is then parsed in place, without a copy.
ImageInfo load_checked(std::istream& in, const std::string& name, const DriveConfig& config, Ftl& ftl, PageStore& store,
                       bool verify, const std::atomic<bool>* interrupted, const std::uint8_t* base = nullptr) {
  check_preamble(in, name);
  const std::string saved_config = read_section(in, "CONF", "drive config", kMaxConfigBytes, verify);
  const std::string current = effective_config_yaml(config);
  if (saved_config != current) {
    throw ImageError("image " + name + " belongs to another drive config (" + first_difference(saved_config, current) +
                     "); serve it with the config it was made with, or use another --image");
  }
  std::string ftl_copy;  // the FTL state, when the stream is not memory
  const std::uint8_t* ftl_bytes = nullptr;
  std::size_t ftl_size = 0;
  if (base) {
    image::SectionReader s(in, "FTL ", "FTL state", 0, ftl_image_max_bytes(ftl), verify);
    ftl_size = s.length();
    ftl_bytes = s.skip_in_place(base);
    s.finish();
  } else {
    ftl_copy = read_section(in, "FTL ", "FTL state", ftl_image_max_bytes(ftl), verify);
    ftl_bytes = reinterpret_cast<const std::uint8_t*>(ftl_copy.data());
    ftl_size = ftl_copy.size();
  }
  PageStore fresh(ftl.geometry());
  ImageInfo info;
  info.data_blocks = read_blocks(in, ftl.geometry(), fresh, verify, interrupted);
  image::expect_bytes(in, kEndMagic, 8, "end marker");
  const std::istream::pos_type end = in.tellg();
  if (in.peek() != std::char_traits<char>::eof()) throw ImageFormatError("bytes after the end marker");
  info.file_bytes = end == std::istream::pos_type(-1) ? 0 : static_cast<std::uint64_t>(end);
  // Everything checked but the FTL state's own contents: Ftl::load checks them (geometry,
  // ranges, invariants) and changes nothing unless they pass. It is the last step that can fail.
  check_interrupted(interrupted);
  try {
    FtlLoadOptions options;
    options.allow_buffered = false;  // saved drained
    options.verify_checksums = verify;
    load_ftl_image(ftl, ftl_bytes, ftl_size, options);
  } catch (const ImageFormatError& e) {
    throw ImageFormatError(std::string("section 'FTL state': ") + e.what());
  }
  store = std::move(fresh);
  return info;
}

}  // namespace

// PATH.tmp.PID files of savers that are no longer running (killed during a save). A PID that
// is alive, or that kill() may not probe, keeps its file. (PIDs of another PID namespace sharing
// the directory cannot be told apart.)
std::vector<std::string> remove_stale_temporaries(const std::string& path) {
  namespace fs = std::filesystem;
  const fs::path image(path);
  const fs::path dir = image.has_parent_path() ? image.parent_path() : fs::path(".");
  const std::string prefix = image.filename().string() + ".tmp.";
  std::vector<fs::path> stale;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string digits = name.substr(prefix.size());
    if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const long pid = std::stol(digits);
    if (pid <= 0 || pid == long(::getpid())) continue;
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    stale.push_back(it->path());
  }
  std::vector<std::string> removed;
  for (const fs::path& p : stale) {
    if (fs::remove(p, ec)) removed.push_back(p.string());
  }
  return removed;
}

std::uint64_t write_image(std::ostream& out, const DriveConfig& config, const Ftl& ftl, const PageStore& store) {
  for (Lpn lpn = 0; lpn < ftl.user_units(); ++lpn) {
    if (Ftl::is_buffered(ftl.lookup(lpn))) throw ImageError("image save: the write buffer is not drained");
  }
  const Geometry& g = ftl.geometry();
  out.write(kMagic, 8);
  out.write(reinterpret_cast<const char*>(&kByteOrder), 4);
  out.write(reinterpret_cast<const char*>(&kVersion), 4);
  write_section(out, "CONF", effective_config_yaml(config));
  write_ftl_section(out, ftl);
  {
    SectionWriter h(out, "DHDR", kDataHeaderBytes);
    h.put<std::uint32_t>(g.blocks);
    h.put<std::uint64_t>(store.block_bytes());
    h.put<std::uint64_t>(store.allocated_blocks());
    h.finish();
  }
  std::uint64_t blocks = 0;
  for (std::uint32_t b = 0; b < g.blocks; ++b) {
    const std::uint8_t* data = store.block_data(b);
    if (!data) continue;
    SectionWriter s(out, "BLCK", 4 + store.block_bytes());
    s.put<std::uint32_t>(b);
    s.write(data, store.block_bytes());
    s.finish();
    ++blocks;
  }
  out.write(kEndMagic, 8);
  return blocks;
}

ImageInfo save_image(const std::string& path, const DriveConfig& config, const Ftl& ftl, const PageStore& store) {
  ImageInfo info;
  info.removed_temporaries = remove_stale_temporaries(path);
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  try {
    OutFile file(tmp);
    info.data_blocks = write_image(file.stream(), config, ftl, store);
    info.file_bytes = file.bytes();
    file.commit();
  } catch (...) {
    ::unlink(tmp.c_str());
    throw;
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    throw std::runtime_error("cannot rename " + tmp + " to " + path + ": " + why);
  }
  // The rename itself is durable once the directory is.
  const std::string dir = path.find('/') == std::string::npos ? "." : path.substr(0, path.rfind('/') + 1);
  const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
  return info;
}

namespace {

// load_checked, its format errors named after the image.
ImageInfo load_named(std::istream& in, const std::string& name, const DriveConfig& config, Ftl& ftl, PageStore& store,
                     bool verify_checksums, const std::atomic<bool>* interrupted, const std::uint8_t* base = nullptr) {
  try {
    return load_checked(in, name, config, ftl, store, verify_checksums, interrupted, base);
  } catch (const ImageFormatError& e) {
    throw ImageError(name + ": " + e.what());
  }
}

}  // namespace

ImageInfo load_image(std::istream& in, const std::string& name, const DriveConfig& config, Ftl& ftl, PageStore& store,
                     bool verify_checksums, const std::atomic<bool>* interrupted) {
  return load_named(in, name, config, ftl, store, verify_checksums, interrupted);
}

ImageInfo load_image(const std::string& path, const DriveConfig& config, Ftl& ftl, PageStore& store,
                     const std::atomic<bool>* interrupted) {
  const std::vector<std::string> removed = remove_stale_temporaries(path);
  // Mapped, not read: the FTL state (most of an image without data) is parsed where it lies.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw ImageError("cannot open image " + path + ": " + std::strerror(errno));
  struct stat st {};
  void* map = MAP_FAILED;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
    map = ::mmap(nullptr, static_cast<std::size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
  }
  ImageInfo info;
  if (map == MAP_FAILED) {  // empty, not a regular file, or not mappable: read it as a stream
    ::close(fd);
    std::ifstream in(path, std::ios::binary);
    if (!in) throw ImageError("cannot open image " + path + ": " + std::strerror(errno));
    info = load_image(in, path, config, ftl, store, true, interrupted);
  } else {
    ::close(fd);
    const auto size = static_cast<std::size_t>(st.st_size);
    ::madvise(map, size, MADV_SEQUENTIAL);
    struct Unmap {
      void* p;
      std::size_t n;
      ~Unmap() { ::munmap(p, n); }
    } unmap{map, size};
    image::MemoryView view(static_cast<const std::uint8_t*>(map), size);
    std::istream in(&view);
    info = load_named(in, path, config, ftl, store, true, interrupted, static_cast<const std::uint8_t*>(map));
  }
  info.removed_temporaries = removed;
  return info;
}

}  // namespace ssdlab

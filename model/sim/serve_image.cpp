#include "model/sim/serve_image.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

#include "model/core/config_loader.h"

namespace ssdlab {

namespace {

constexpr char kMagic[8] = {'S', 'S', 'D', 'L', 'I', 'M', 'G', '1'};
constexpr char kEndMagic[8] = {'S', 'S', 'D', 'L', 'E', 'N', 'D', '1'};
constexpr std::uint32_t kByteOrder = 0x01020304u;
constexpr std::uint32_t kVersion = 1;

// A FILE* that is closed on every path; writes report errno.
class OutFile {
 public:
  explicit OutFile(const std::string& path) : m_path(path), m_f(std::fopen(path.c_str(), "wb")) {
    if (!m_f) fail("cannot create");
  }
  ~OutFile() {
    if (m_f) std::fclose(m_f);
  }
  void write(const void* p, std::size_t n) {
    if (n && std::fwrite(p, 1, n, m_f) != n) fail("cannot write");
    m_bytes += n;
  }
  template <class T>
  void put(const T& v) {
    write(&v, sizeof v);
  }
  // Flushes, fsyncs and closes.
  void commit() {
    if (std::fflush(m_f) != 0 || ::fsync(fileno(m_f)) != 0) fail("cannot write");
    FILE* f = m_f;
    m_f = nullptr;
    if (std::fclose(f) != 0) fail("cannot close");
  }
  std::uint64_t bytes() const { return m_bytes; }

 private:
  [[noreturn]] void fail(const char* what) {
    throw std::runtime_error(std::string(what) + " " + m_path + ": " + std::strerror(errno));
  }
  std::string m_path;
  FILE* m_f;
  std::uint64_t m_bytes = 0;
};

template <class T>
T get(std::istream& in, const std::string& path) {
  T v;
  if (!in.read(reinterpret_cast<char*>(&v), sizeof v)) throw ImageError(path + ": image is truncated");
  return v;
}

std::string get_string(std::istream& in, const std::string& path, std::uint64_t limit) {
  const auto n = get<std::uint64_t>(in, path);
  if (n > limit) throw ImageError(path + ": image is damaged (a section claims " + std::to_string(n) + " bytes)");
  std::string s(n, '\0');
  if (n && !in.read(&s[0], std::streamsize(n))) throw ImageError(path + ": image is truncated");
  return s;
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

}  // namespace

ImageInfo save_image(const std::string& path, const DriveConfig& config, const DeviceController& controller) {
  const Ftl& ftl = controller.ftl();
  for (Lpn lpn = 0; lpn < ftl.user_units(); ++lpn) {
    if (Ftl::is_buffered(ftl.lookup(lpn))) throw ImageError("image save: the write buffer is not drained");
  }
  const PageStore* store = controller.page_store();
  if (!store) throw ImageError("image save: this drive does not carry data");
  std::ostringstream ftl_bytes;
  ftl.save(ftl_bytes);
  const std::string ftl_image = ftl_bytes.str();
  const std::string fingerprint = effective_config_yaml(config);
  const Geometry& g = ftl.geometry();

  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  ImageInfo info;
  try {
    OutFile out(tmp);
    out.write(kMagic, 8);
    out.put(kByteOrder);
    out.put(kVersion);
    out.put<std::uint64_t>(fingerprint.size());
    out.write(fingerprint.data(), fingerprint.size());
    out.put<std::uint64_t>(ftl_image.size());
    out.write(ftl_image.data(), ftl_image.size());
    out.put<std::uint32_t>(g.blocks);
    out.put<std::uint64_t>(store->block_bytes());
    out.put<std::uint64_t>(store->allocated_blocks());
    for (std::uint32_t b = 0; b < g.blocks; ++b) {
      const std::uint8_t* data = store->block_data(b);
      if (!data) continue;
      out.put<std::uint32_t>(b);
      out.write(data, store->block_bytes());
      ++info.data_blocks;
    }
    out.write(kEndMagic, 8);
    info.file_bytes = out.bytes();
    out.commit();
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

ImageInfo load_image(const std::string& path, const DriveConfig& config, DeviceController& controller) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ImageError("cannot open image " + path + ": " + std::strerror(errno));
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, kMagic, 8) != 0) {
    throw ImageError(path + " is not an ssdlab drive image");
  }
  if (get<std::uint32_t>(in, path) != kByteOrder) throw ImageError(path + ": image of a machine of the other byte order");
  const auto version = get<std::uint32_t>(in, path);
  if (version != kVersion) throw ImageError(path + ": image format version " + std::to_string(version) + " is not supported");
  const std::string saved_config = get_string(in, path, 1 << 20);
  const std::string current = effective_config_yaml(config);
  if (saved_config != current) {
    throw ImageError("image " + path + " belongs to another drive config (" + first_difference(saved_config, current) +
                     "); serve it with the config it was made with, or use another --image");
  }
  const std::string ftl_image = get_string(in, path, std::uint64_t(1) << 40);
  Ftl& ftl = controller.ftl();
  PageStore* store = controller.page_store();
  if (!store) throw ImageError("image load: this drive does not carry data");
  const Geometry& g = ftl.geometry();
  const auto blocks = get<std::uint32_t>(in, path);
  const auto block_bytes = get<std::uint64_t>(in, path);
  const auto count = get<std::uint64_t>(in, path);
  if (blocks != g.blocks || block_bytes != store->block_bytes() || count > blocks) {
    throw ImageError(path + ": image is damaged (flash array of another shape)");
  }
  // The mapping first: it checks itself (geometry, ranges, invariants) before anything changes.
  try {
    std::istringstream ftl_in(ftl_image);
    ftl.load(ftl_in);
  } catch (const std::runtime_error& e) {
    throw ImageError(path + ": " + e.what());
  }
  for (Lpn lpn = 0; lpn < ftl.user_units(); ++lpn) {
    if (Ftl::is_buffered(ftl.lookup(lpn))) throw ImageError(path + ": image is damaged (buffered mapping entries)");
  }
  store->clear();
  ImageInfo info;
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto b = get<std::uint32_t>(in, path);
    if (b >= blocks || store->block_data(b)) throw ImageError(path + ": image is damaged (block list)");
    if (!in.read(reinterpret_cast<char*>(store->block_data_for_write(b)), std::streamsize(block_bytes))) {
      throw ImageError(path + ": image is truncated");
    }
    ++info.data_blocks;
  }
  if (!in.read(magic, 8) || std::memcmp(magic, kEndMagic, 8) != 0) throw ImageError(path + ": image is truncated");
  info.file_bytes = static_cast<std::uint64_t>(in.tellg());
  return info;
}

}  // namespace ssdlab

#include "sim/core/ir/buffer_file.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <stdexcept>

namespace warpsim::ir {
namespace {

// NumPy's dtype string for an element type of the IR's, as a little-endian machine writes it.
std::optional<std::string> npy_descr(ScalarType t) {
  switch (t) {
    case ScalarType::S32:
      return "<i4";
    case ScalarType::U32:
      return "<u4";
    case ScalarType::S64:
      return "<i8";
    case ScalarType::U64:
      return "<u8";
    case ScalarType::F32:
      return "<f4";
    case ScalarType::F64:
      return "<f8";
    default:
      return std::nullopt;
  }
}

// NumPy's dtype strings for an element type, as a little-endian machine writes it, and with
// the native order's '=' (and '|', "not applicable", for one-byte types). bfloat16 has none.
std::vector<std::string> npy_descrs(BufferType type) {
  const auto ordered = [](const std::string& d) {
    return std::vector<std::string>{d, "=" + d.substr(1)};
  };
  const bool is_signed = is_signed_int(type.element);
  switch (type.storage) {
    case Storage::Bits8:
      return {is_signed ? "|i1" : "|u1", is_signed ? "<i1" : "<u1", is_signed ? "=i1" : "=u1"};
    case Storage::Bits16:
      return ordered(is_signed ? "<i2" : "<u2");
    case Storage::F16:
      return ordered("<f2");
    case Storage::BF16:
      return {};
    case Storage::Natural:
      break;
  }
  const auto d = npy_descr(type.element);
  return d ? ordered(*d) : std::vector<std::string>{};
}

bool is_npy(const std::string& path) {
  return std::filesystem::path(path).extension() == ".npy";
}

// Reads the .npy header: "\x93NUMPY", major, minor, the header's length (2 bytes in version 1,
// 4 in 2 and 3), then a Python dict literal {'descr': ..., 'fortran_order': ..., 'shape': ...}.
BufferFileCheck npy_layout(std::ifstream& in, std::uint64_t file_bytes, BufferType type,
                           std::uint64_t count) {
  char magic[8] = {};
  in.read(magic, 8);
  if (!in || std::string(magic, 6) != "\x93NUMPY") return {{}, "not a .npy file (no NUMPY magic)"};
  const auto major = static_cast<unsigned char>(magic[6]);
  if (major < 1 || major > 3) return {{}, "a .npy version " + std::to_string(major) + " file"};
  const unsigned length_bytes = major == 1 ? 2 : 4;
  unsigned char length_field[4] = {};
  in.read(reinterpret_cast<char*>(length_field), length_bytes);
  std::uint64_t header_length = 0;
  for (unsigned i = length_bytes; i-- > 0;) header_length = header_length << 8 | length_field[i];
  const std::uint64_t data_offset = 8 + length_bytes + header_length;
  if (!in || data_offset > file_bytes || header_length > 65536) {
    return {{}, "a .npy header that runs past the file"};
  }
  std::string header(header_length, '\0');
  in.read(header.data(), static_cast<std::streamsize>(header_length));
  std::smatch m;
  if (!std::regex_search(header, m, std::regex(R"('descr'\s*:\s*'([^']*)')"))) {
    return {{}, "a .npy header without a 'descr'"};
  }
  const std::string descr = m[1];
  const std::vector<std::string> want = npy_descrs(type);
  if (std::find(want.begin(), want.end(), descr) == want.end()) {
    return {{},
            "holds dtype '" + descr + "', not " + std::string(buffer_type_name(type)) +
                (want.empty() ? " (NumPy has no such dtype: give a raw file)"
                              : " ('" + want.front() + "')")};
  }
  if (std::regex_search(header, std::regex(R"('fortran_order'\s*:\s*True)"))) {
    return {{}, "is in Fortran order (save it C-ordered: np.ascontiguousarray)"};
  }
  if (!std::regex_search(header, m, std::regex(R"('shape'\s*:\s*\(([^)]*)\))"))) {
    return {{}, "a .npy header without a 'shape'"};
  }
  std::uint64_t elements = 1;
  const std::string shape = m[1];
  const std::regex dim(R"(\d+)");
  for (auto it = std::sregex_iterator(shape.begin(), shape.end(), dim);
       it != std::sregex_iterator(); ++it) {
    elements *= std::stoull(it->str());
  }
  if (elements != count) {
    return {{},
            "holds " + std::to_string(elements) + " elements (shape (" + shape + ")), the buffer " +
                std::to_string(count)};
  }
  const std::uint64_t data_bytes = count * storage_bytes(type);
  if (file_bytes - data_offset < data_bytes) return {{}, "is shorter than its header says"};
  return {BufferFileLayout{data_offset, data_bytes}, {}};
}

}  // namespace

BufferFileCheck check_buffer_file(const std::string& path, BufferType type, std::uint64_t count) {
  std::error_code ec;
  const auto file_bytes = std::filesystem::file_size(path, ec);
  std::ifstream in;
  if (!ec && std::filesystem::is_regular_file(path, ec)) in.open(path, std::ios::binary);
  if (!in.is_open()) return {{}, "cannot be read (missing, unreadable or not a regular file)"};
  if (is_npy(path)) return npy_layout(in, file_bytes, type, count);
  const std::uint64_t data_bytes = count * storage_bytes(type);
  if (file_bytes != data_bytes) {
    return {{},
            "holds " + std::to_string(file_bytes) + " bytes; " + std::to_string(count) + " raw " +
                std::string(buffer_type_name(type)) + " elements are " +
                std::to_string(data_bytes)};
  }
  return {BufferFileLayout{0, data_bytes}, {}};
}

std::vector<std::uint8_t> read_buffer_file(const std::string& path, BufferType type,
                                           std::uint64_t count) {
  const BufferFileCheck check = check_buffer_file(path, type, count);
  if (!check.layout) throw std::runtime_error("buffer file '" + path + "' " + check.error);
  std::ifstream in(path, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(check.layout->data_offset));
  std::vector<std::uint8_t> bytes(check.layout->data_bytes);
  in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!in) throw std::runtime_error("buffer file '" + path + "' could not be read to its end");
  return bytes;
}

}  // namespace warpsim::ir

// Files for the Matrix Market reader and writer: plain or gzip input (zlib
// reads both transparently), the writer, and dense right-hand-side vectors.
#include <zlib.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/matrix/matrix_market.h"
#include "core/matrix/text_lines.h"
#include "core/matrix/validate.h"

namespace factord {
namespace {

struct GzCloser {
  void operator()(gzFile_s* file) const { gzclose(file); }
};
using GzFile = std::unique_ptr<gzFile_s, GzCloser>;

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using File = std::unique_ptr<std::FILE, FileCloser>;

absl::Status OpenError(const std::string& path, int error) {
  return absl::ErrnoToStatus(error, absl::StrCat("cannot open '", path, "'"));
}

// Appends "i j v\n" lines (1-based) to `out`.
void AppendEntry(int64_t row, int64_t col, double value, std::string* out) {
  // 20 digits per index, at most 24 characters for the shortest double.
  char buffer[96];
  char* const end = buffer + sizeof(buffer);
  char* p = std::to_chars(buffer, end, row + 1).ptr;
  if (p < end) *p++ = ' ';
  p = std::to_chars(p, end, col + 1).ptr;
  if (p < end) *p++ = ' ';
  // The shortest form that reads back to the same double.
  p = std::to_chars(p, end, value).ptr;
  if (p < end) *p++ = '\n';
  out->append(buffer, p);
}

// Writes through zlib or stdio; Write() flushes `buffer`.
class Sink {
 public:
  static absl::StatusOr<Sink> Open(const std::string& path) {
    Sink sink;
    sink.path_ = path;
    errno = 0;
    if (absl::EndsWith(path, ".gz")) {
      sink.gz_.reset(gzopen(path.c_str(), "wb"));
      if (!sink.gz_) return OpenError(path, errno ? errno : ENOMEM);
    } else {
      sink.file_.reset(std::fopen(path.c_str(), "wb"));
      if (!sink.file_) return OpenError(path, errno);
    }
    return sink;
  }
  absl::Status Write(std::string* buffer) {
    bool ok = true;
    if (gz_) {
      size_t done = 0;
      while (ok && done < buffer->size()) {
        const unsigned chunk = static_cast<unsigned>(
            std::min<size_t>(buffer->size() - done, 1u << 30));
        ok = gzwrite(gz_.get(), buffer->data() + done, chunk) ==
             static_cast<int>(chunk);
        done += chunk;
      }
    } else {
      ok = std::fwrite(buffer->data(), 1, buffer->size(), file_.get()) ==
           buffer->size();
    }
    buffer->clear();
    if (!ok)
      return absl::InternalError(absl::StrCat("writing '", path_, "' failed"));
    return absl::OkStatus();
  }
  absl::Status Close() {
    const bool ok = gz_ ? gzclose(gz_.release()) == Z_OK
                        : std::fclose(file_.release()) == 0;
    if (!ok)
      return absl::InternalError(absl::StrCat("closing '", path_, "' failed"));
    return absl::OkStatus();
  }

 private:
  std::string path_;
  GzFile gz_;
  File file_;
};

}  // namespace

absl::StatusOr<std::string> ReadFileMaybeGzip(const std::string& path,
                                              int64_t max_bytes) {
  errno = 0;
  GzFile file(gzopen(path.c_str(), "rb"));
  if (!file) return OpenError(path, errno ? errno : ENOMEM);
  gzbuffer(file.get(), 1 << 18);
  std::string bytes;
  constexpr size_t kChunk = size_t{1} << 22;
  while (true) {
    if (static_cast<int64_t>(bytes.size()) > max_bytes) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "'", path, "' holds more than the limit of ", max_bytes, " bytes"));
    }
    const size_t old_size = bytes.size();
    bytes.resize(old_size + kChunk);
    const int got = gzread(file.get(), bytes.data() + old_size, kChunk);
    if (got < 0) {
      int code = 0;
      const char* message = gzerror(file.get(), &code);
      return absl::InvalidArgumentError(
          absl::StrCat("'", path, "': ", message ? message : "read error"));
    }
    bytes.resize(old_size + got);
    if (got == 0) break;
  }
  // A truncated gzip stream ends without an error from gzread.
  int code = 0;
  const char* message = gzerror(file.get(), &code);
  if (code != Z_OK && code != Z_STREAM_END) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", path, "': ", message ? message : "corrupt gzip data"));
  }
  return bytes;
}

absl::StatusOr<CsrMatrix> ReadMatrixMarket(const std::string& path,
                                           MatrixMarketInfo* info,
                                           const MatrixMarketLimits& limits) {
  absl::StatusOr<std::string> text = ReadFileMaybeGzip(path);
  if (!text.ok()) return text.status();
  return ParseMatrixMarket(*text, info, limits);
}

absl::StatusOr<CsrMatrix> ReadMatrixMarket(const std::string& path) {
  return ReadMatrixMarket(path, nullptr, MatrixMarketLimits());
}

absl::Status WriteMatrixMarket(const CsrMatrix& a, const std::string& path) {
  absl::Status status = ValidateCsr(a);
  if (!status.ok()) return status;
  absl::StatusOr<Sink> sink = Sink::Open(path);
  if (!sink.ok()) return sink.status();
  std::string buffer = absl::StrCat(
      "%%MatrixMarket matrix coordinate real ",
      IsSymmetric(a.structure) ? "symmetric" : "general", "\n",
      "% written by factord\n", a.rows, " ", a.cols, " ", a.nnz(), "\n");
  constexpr size_t kFlushBytes = size_t{1} << 20;
  for (int64_t i = 0; i < a.rows; ++i) {
    for (int64_t k = a.row_ptr[i]; k < a.row_ptr[i + 1]; ++k) {
      AppendEntry(i, a.col_idx[k], a.values[k], &buffer);
    }
    if (buffer.size() >= kFlushBytes) {
      status = sink->Write(&buffer);
      if (!status.ok()) return status;
    }
  }
  status = sink->Write(&buffer);
  if (!status.ok()) return status;
  return sink->Close();
}

absl::StatusOr<std::vector<double>> ParseDenseVector(absl::string_view text) {
  using internal::Quote;
  size_t start = 0;
  while (start < text.size() && internal::IsSpace(text[start])) ++start;
  if (absl::StartsWithIgnoreCase(text.substr(start), "%%MatrixMarket")) {
    MatrixMarketInfo info;
    absl::StatusOr<CsrMatrix> a =
        ParseMatrixMarket(text, &info, MatrixMarketLimits());
    if (!a.ok()) return a.status();
    if (a->cols != 1 && a->rows != 1) {
      return absl::InvalidArgumentError(
          absl::StrCat("line 2: a vector must be n x 1 or 1 x n, got ", a->rows,
                       " x ", a->cols));
    }
    const CsrMatrix full = ExpandSymmetric(*a);  // a 1 x 1 symmetric one
    std::vector<double> x(std::max(full.rows, full.cols), 0.0);
    for (int64_t i = 0; i < full.rows; ++i) {
      for (int64_t k = full.row_ptr[i]; k < full.row_ptr[i + 1]; ++k) {
        x[full.cols == 1 ? i : full.col_idx[k]] = full.values[k];
      }
    }
    return x;
  }
  std::vector<double> x;
  internal::TextLines lines(text);
  absl::string_view line;
  while (lines.Next(&line)) {
    internal::Tokens tokens(line);
    absl::string_view token;
    if (!tokens.Next(&token) || token[0] == '%' || token[0] == '#') continue;
    const int64_t n = lines.line_number();
    const int extra = tokens.CountRest();
    if (extra != 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("line ", n, ": expected one value, found ", extra + 1));
    }
    double value = 0;
    switch (internal::ParseReal(token, &value)) {
      case internal::RealParse::kOk:
        x.push_back(value);
        break;
      case internal::RealParse::kNotFinite:
        return absl::InvalidArgumentError(absl::StrCat(
            "line ", n, ": value ", Quote(token), " is not finite"));
      case internal::RealParse::kMalformed:
        return absl::InvalidArgumentError(absl::StrCat(
            "line ", n, ": value ", Quote(token), " is not a number"));
    }
  }
  if (x.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("line ", lines.end_line_number(), ": no values"));
  }
  return x;
}

absl::StatusOr<std::vector<double>> ReadDenseVector(const std::string& path) {
  absl::StatusOr<std::string> text = ReadFileMaybeGzip(path);
  if (!text.ok()) return text.status();
  return ParseDenseVector(*text);
}

}  // namespace factord

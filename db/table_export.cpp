// export_wdl_table(): a table's value streams (StreamSpec::value) re-encoded into a WDL-only
// table by the writer, whose default tuning the solver's tables have, so that they come out as
// they were.
#include <algorithm>
#include <vector>

#include "db/table.h"

namespace mora {

void export_wdl_table(const std::filesystem::path& from, const std::filesystem::path& to) {
  const TableReader reader(from);
  reader.check();  // every block and the barred section, before anything is copied
  TableHeader header = reader.header();
  if (header.wdl_only)
    throw TableError(from.string() + ": a WDL-only table already; copy it as it is");
  header.wdl_only = true;
  TableWriter writer(to, header);
  constexpr std::uint64_t kChunk = 1 << 20;
  std::vector<Entry> chunk;
  for (std::uint64_t begin = 0; begin < header.num_positions; begin += kChunk) {
    chunk.resize(std::min(kChunk, header.num_positions - begin));
    reader.read_values(begin, chunk);  // the distance streams are not decoded
    writer.append(chunk);
  }
  if (header.has_barred) {
    const auto barred = reader.barred();
    writer.set_barred({barred.begin(), barred.end()});
  }
  writer.finish();
}

}  // namespace mora

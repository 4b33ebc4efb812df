// export_table(): a full table re-encoded with fewer of its values, by the writer, whose
// default tuning the solver's tables have, so that the streams it keeps come out as they were.
#include <algorithm>
#include <vector>

#include "db/table.h"

namespace mora {

void export_table(const std::filesystem::path& from, const std::filesystem::path& to,
                  TableContents contents) {
  const TableReader reader(from);
  reader.check();  // every block and the barred section, before anything is copied
  TableHeader header = reader.header();
  if (header.contents != TableContents::kFull)
    throw TableError(from.string() +
                     ": not a full table (written by export already); export "
                     "from the solver's folder");
  header.contents = contents;
  TableWriter writer(to, header);
  constexpr std::uint64_t kChunk = 1 << 20;
  std::vector<Entry> chunk;
  for (std::uint64_t begin = 0; begin < header.num_positions; begin += kChunk) {
    chunk.resize(std::min(kChunk, header.num_positions - begin));
    if (contents == TableContents::kWdlOnly)
      reader.read_values(begin, chunk);  // the distance streams are not decoded
    else
      reader.read(begin, chunk);
    writer.append(chunk);
  }
  // The reader's section outlives the writer's finish(), which reads it.
  if (header.has_barred)
    writer.set_barred(reader.barred().size(),
                      [&reader](std::uint64_t k) { return reader.barred()[k]; });
  writer.finish();
}

}  // namespace mora

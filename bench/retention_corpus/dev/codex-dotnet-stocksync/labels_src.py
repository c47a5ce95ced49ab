# ruff: noqa: E501
"""Labels for codex-dotnet-stocksync, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))  # the corpus: the label writer is in synth/
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "StockSync: SAP decimal comma under invariant culture, batched EF Core import, --dry-run, error file (.NET 8)",
    "format": "codex",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout2 test split",
    "voice": "German-flavoured non-native English ('The file format we cannot change', 'Is ok to use ...?'), decisions stated with 'so' and ':', one request corrected mid-message",
    "toolchain": "C# .NET 8, dotnet test + xUnit, EF Core (SQL Server in docker, SQLite in-memory for tests), System.CommandLine",
}
COMPACTIONS = [
    ("Fixed. `ParseRow` parses the quantity with a fixed `NumberFormatInfo`", 1500),
    ("Fixed and measured against the local SQL Server container", 1200),
    ("Rejected rows now go to `/var/lib/stocksync/errors/", 600),
]
FACTS = [
    f("d01", "request", "must", "the import makes 125 out of it", "Fix the StockImporter: SAP quantities like \"12,5\" are imported as 125.", [r"12,5|decimal comma|comma", r"125|quantit|pars"], "done"),
    f("d02", "finding", "should", "This is since we moved the server to Linux", "The bug started with the move to Linux, where the culture is invariant.", [r"Linux|invariant", r"culture|globali[sz]ation"]),
    f("d03", "constraint", "must", "The file format we cannot change, it comes from SAP like this", "The file format cannot change: it comes from SAP like this.", [r"format|file|SAP", r"cannot change|can't change|unchanged|not change|as is|comes from SAP|fixed"]),
    f("d04", "constraint", "must", "the tests must run with `dotnet test` without database", "Tests must run with `dotnet test` without a database server: there is no SQL Server in CI.", [r"without (a )?(database|DB|server)|no (SQL Server|database|DB|server)|SQLite", r"test|\bCI\b"]),
    f("d05", "finding", "should", "docker-compose.yml:14:      - DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1", "docker-compose.yml sets DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 (',' is the thousands separator there; de-DE worked on Windows by accident).", [r"GLOBALIZATION_INVARIANT|invariant globali[sz]ation"]),
    f("d06", "finding", "should", "2,216 of the 80,411 rows", "The SAP file also uses '.' thousands separators: 2,216 of 80,411 rows look like 1.250,000.", [r"1\.250,000|thousands", r"2,?216|separator|dot"]),
    f("d07", "decision", "must", "So: I parse the quantity explicitly with de-DE number format", "Quantities are parsed with a fixed NumberFormatInfo (',' decimal, '.' thousands), never the server culture; not CultureInfo(\"de-DE\") because invariant mode has no culture data.", [r"NumberFormatInfo|de-DE|fixed (number )?format", r"decimal|quantit|pars|culture"]),
    f("d08", "error", "should", "System.FormatException : The input string '1.250,000'", "New test failed like production: Assert.Equal Expected 12.5 Actual 125, and '1.250,000' threw FormatException.", [r"FormatException|Actual:\s+125|12\.5.{0,40}125|125.{0,40}12\.5"], "fixed"),
    f("d09", "fix", "should", "private static readonly NumberFormatInfo SapNumbers", "Fix: ParseRow uses decimal.Parse(f[2], NumberStyles.Number, SapNumbers) and int.Parse with InvariantCulture.", [r"SapNumbers|NumberFormatInfo|NumberStyles"]),
    f("d10", "value", "nice", "38 tests (34 + 4 cases)", "Tests: 34 before, 38 after the parsing fix.", [r"\b38\b|\b34\b", r"tests?"]),
    f("d11", "request", "must", "the import of the big file (80k rows) takes 11 minutes", "Make the import of the 80k-row file faster (11 minutes in production).", [r"11 ?min|80k|80,?4\d\d|faster|speed", r"import"], "done"),
    f("d12", "constraint", "must", "Is ok to use EFCore.BulkExtensions?", "No EFCore.BulkExtensions (license not free for commercial use, no budget): plain EF Core only.", [r"BulkExtensions", r"licen[cs]e|\bno\b|not|without|plain"]),
    f("d13", "finding", "should", "The importer does one `FindAsync` and one `SaveChangesAsync` per row", "Cause: one FindAsync and one SaveChangesAsync per row, ~160k round trips (160,826 sp_executesql).", [r"per row|each row|round.?trips|160", r"SaveChanges|FindAsync|statement|sp_executesql|round"]),
    f("d14", "decision", "must", "load all existing items of the file's warehouses in one query", "Design: load existing items in one query into a dictionary, AutoDetectChangesEnabled off, SaveChangesAsync per batch of 1,000 rows.", [r"batch|1,?000", r"SaveChanges|AutoDetect|one query|dictionary"]),
    f("d15", "decision", "should", "sqlite in-memory is ok, it is not a server", "Import tests use SQLite in-memory (not a server, runs in CI, checks keys unlike the InMemory provider).", [r"SQLite", r"in-memory|:memory:|memory"]),
    f("d16", "error", "should", "System.InvalidOperationException : The instance of entity type 'StockItem' cannot be tracked", "With batching, a SKU twice in one file failed: InvalidOperationException: instance of 'StockItem' cannot be tracked, key {Sku: A-1002, WarehouseId: 3} already tracked.", [r"cannot be tracked|already being tracked|InvalidOperationException", r"StockItem|A-1002|duplicate|Sku"], "fixed"),
    f("d17", "decision", "must", "duplicates: the last line wins, so like before", "Duplicate SKU+warehouse in one file: the last line wins (SAP writes corrections at the end).", [r"last (line|row)|later (row|line)", r"wins|duplicate"]),
    f("d18", "fix", "should", "a later duplicate updates it: last line wins", "Fix: a newly added item goes into the existing-items dictionary, so a later duplicate row updates it.", [r"existing|dictionary|later duplicate", r"last line wins|updat"]),
    f("d19", "value", "nice", "The real sample has 14 such duplicate", "The sample has 14 duplicate SKU+warehouse pairs.", [r"\b14\b", r"duplicate"]),
    f("d20", "value", "must", "- now: 41.3 s with batches of 1,000", "Import of the 80,411-row sample: 10 min 55 s before, 41.3 s now (81 statements instead of ~160k).", [r"41(\.3)? ?s", r"batch|before|10 ?min|faster|import"]),
    f("d21", "decision", "should", "So: I keep 1,000, bigger batches win almost nothing", "Batch size stays 1,000: bigger batches win almost nothing and hold larger transactions on the production DB.", [r"1,?000", r"batch"]),
    f("d22", "value", "nice", "batch 2000: 39.84 s", "Batch sizes measured: 500 46.2 s, 1000 41.3 s, 2000 39.8 s, 5000 40.9 s.", [r"39\.8|46\.2|40\.9"]),
    f("d24", "request", "should", "Next: a `--dry-run` option for the import command", "Add --dry-run to the import command: show what would change, write nothing.", [r"dry.?run"], "done"),
    f("d25", "error", "nice", "error CS8858: The receiver type", "Build error CS8858: 'StockImporter' is not a valid record type (a `with { }` on the importer); fixed by constructing it with DryRun = dry.", [r"CS8858|not a valid record type|with \{"], "fixed"),
    f("d26", "value", "nice", "On the sample: would insert 0, update 80,409", "Dry run on the sample: would insert 0, update 80,409, skip 2 (3.9 s).", [r"80,?409"]),
    f("d27", "path", "should", "Add File: tests/StockSync.Tests/ImportTests.cs", "tests/StockSync.Tests/ImportTests.cs: importer tests on SQLite in-memory (insert/update/skip, batch boundary, same SKU twice, dry run).", [r"ImportTests"]),
    f("d28", "value", "should", "New test `DryRunWritesNothing`; 42 tests pass.", "42 tests pass at the end.", [r"\b42\b", r"tests?|pass"]),
    f("d29", "request", "should", "The 2 skipped rows with unknown warehouse", "Write rows skipped for an unknown warehouse to an error file instead of only a log warning.", [r"reject|skipped|unknown warehouse", r"file|csv"], "done"),
    f("d30", "constraint", "must", "the input share is read-only for the service user", "The input share is read-only for the service user: nothing may be written next to the input file.", [r"read.?only", r"share|input"]),
    f("d31", "decision", "must", "So: write it to /var/lib/stocksync/errors/", "Error files go to /var/lib/stocksync/errors/<input name>-<UTC time>-errors.csv (not import-errors.csv next to the input).", [r"/?var/lib/stocksync(/errors)?"]),
    f("d32", "state", "should", "The importer collects them in `ImportResult.Rejected`", "ImportResult.Rejected holds skipped rows with the reason; the CLI writes the error file only when there are some (also in --dry-run).", [r"Rejected", r"ImportResult|CLI|dry.?run|only when"]),
    f("d33", "finding", "should", "Warehouse 12 is the new Lager in Hamburg", "Both rejected rows are warehouse 12, the new Hamburg warehouse that comes next month.", [r"Hamburg|warehouse 12"]),
    f("d34", "request", "must", "SAP will send also the Lagerplatz (bin", "Open, for later: from January SAP sends the Lagerplatz (bin location) column; StockItem then needs it (migration, 5th field in ParseRow).", [r"Lagerplatz|bin location", r"January|later|not now|StockItem|open"], "open"),
    f("d35", "value", "nice", "a41d9e2 (HEAD -> main)", "Committed as a41d9e2 (not pushed).", [r"a41d9e2"]),
    f("d36", "command", "should", "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 dotnet test --filter ParseRowTests", "Reproduce the culture bug: DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 dotnet test (plain `dotnet test` runs everything).", [r"dotnet test"]),
    f("d37", "command", "nice", "docker compose up -d db && time dotnet run", "Timing: docker compose up -d db, then time dotnet run --project src/StockSync -- import samples/sap-export-2025-11-17.csv.", [r"dotnet run", r"import"]),
    f("d38", "value", "nice", "80412 samples/sap-export-2025-11-17.csv", "Sample file samples/sap-export-2025-11-17.csv: 80,411 data rows.", [r"sap-export-2025-11-17"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)

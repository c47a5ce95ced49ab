# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a Codex CLI rollout written by hand for the heldout2 retention split.

A German-speaking developer ("so: ...", "Is ok to ...?") has Codex fix decimal-comma parsing in a
.NET 8 stock importer after a move to Linux, make the 80k-row import fast without a commercial
bulk library, add --dry-run and an error file. dotnet test + xUnit + EF Core (SQLite in-memory).
Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent.parent))  # the corpus: its writers are in synth/

import files as F  # noqa: E402
from synth.codex_writer import Rollout  # noqa: E402

CWD = "/home/tkoehler/repos/stocksync"
r = Rollout(CWD, "2025-11-18T14:20:05", seed="stocksync-import", repo_url="git@gitlab.lagerhaus-nord.de:it/stocksync.git")
IMP = "src/StockSync/Import/StockImporter.cs"
TST = "tests/StockSync.Tests/ParseRowTests.cs"
CLI = "src/StockSync/Cli/ImportCommand.cs"
r.files.update({IMP: F.IMPORTER, TST: F.TESTS, CLI: F.CLI})


def dotnet_ok(passed: int, ms: int) -> str:
    return (
        "  Determining projects to restore...\n  All projects are up-to-date for restore.\n"
        "  StockSync -> /home/tkoehler/repos/stocksync/src/StockSync/bin/Debug/net8.0/StockSync.dll\n"
        "  StockSync.Tests -> /home/tkoehler/repos/stocksync/tests/StockSync.Tests/bin/Debug/net8.0/StockSync.Tests.dll\n"
        "Test run for /home/tkoehler/repos/stocksync/tests/StockSync.Tests/bin/Debug/net8.0/StockSync.Tests.dll (.NETCoreApp,Version=v8.0)\n"
        "VSTest version 17.11.1 (x64)\n\nStarting test execution, please wait...\nA total of 1 test files matched the specified pattern.\n\n"
        f"Passed!  - Failed:     0, Passed:    {passed}, Skipped:     0, Total:    {passed}, Duration: {ms} ms - StockSync.Tests.dll (net8.0)\n"
    )


# ------------------------------------------------------------------ turn 1
r.user(
    "Hallo. We have a bug in the StockImporter: when the ERP file has quantities like \"12,5\" the import makes 125 out of it. "
    "This is since we moved the server to Linux, there the culture is invariant now. Please fix it. The file format we cannot "
    "change, it comes from SAP like this. And: the tests must run with `dotnet test` without database, in the CI we have no SQL Server.",
    pause=0,
)
r.run("ls && cat StockSync.sln | grep Project", "README.md\nStockSync.sln\ndocker-compose.yml\nsamples\nsrc\ntests\n"
      'Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "StockSync", "src\\StockSync\\StockSync.csproj", "{6A1F2B9C-0D3E-4C55-9B21-1E7A0F4C2D11}"\n'
      'Project("{FAE04EC0-301F-11D3-BF4B-00C04F79EFBC}") = "StockSync.Tests", "tests\\StockSync.Tests\\StockSync.Tests.csproj", "{0B77D3E1-5A2C-4F0A-8E64-3C9D2B1A7F40}"\n',
      reasoning="**Looking at the importer**\n\nFind the parsing code and the tests.")
r.run("ls -R src/StockSync | head -40", "src/StockSync:\nCli\nData\nImport\nProgram.cs\nStockSync.csproj\nappsettings.json\n\nsrc/StockSync/Cli:\nImportCommand.cs\n\nsrc/StockSync/Data:\nStockDbContext.cs\nStockItem.cs\nWarehouse.cs\n\nsrc/StockSync/Import:\nStockImporter.cs\n")
r.sed(IMP, 1, 200)
r.run("rg -n 'Parse\\(' src", "src/StockSync/Import/StockImporter.cs:51:            WarehouseId: int.Parse(f[1]),\nsrc/StockSync/Import/StockImporter.cs:52:            Quantity: decimal.Parse(f[2]),\n")
r.run("rg -n 'CultureInfo|InvariantGlobalization|LANG' src tests Dockerfile* *.yml", "docker-compose.yml:14:      - DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1\n")
r.run("rg -n 'CurrentCulture' src", "", code=1)
r.run("head -5 samples/sap-export-2025-11-17.csv && wc -l samples/sap-export-2025-11-17.csv",
      "MATNR;LGNUM;MENGE;MEINS\nA-1001;3;40;ST\nA-1002;3;12,5;KG\nB-2200;1;1.250,000;L\nB-2201;7;3,75;M\n80412 samples/sap-export-2025-11-17.csv\n")
r.run("rg -c ';[0-9]{1,3}(\\.[0-9]{3})+,' samples/sap-export-2025-11-17.csv", "2216\n")
r.cat(TST)
r.run("ls tests/StockSync.Tests && grep -n 'PackageReference' tests/StockSync.Tests/StockSync.Tests.csproj",
      "ImportCommandTests.cs\nParseRowTests.cs\nStockSync.Tests.csproj\nWarehouseTests.cs\n"
      '12:    <PackageReference Include="Microsoft.NET.Test.Sdk" Version="17.11.1" />\n13:    <PackageReference Include="xunit" Version="2.9.2" />\n'
      '14:    <PackageReference Include="xunit.runner.visualstudio" Version="2.8.2" />\n15:    <PackageReference Include="Microsoft.EntityFrameworkCore.InMemory" Version="8.0.10" />\n')
r.run("dotnet test", dotnet_ok(34, 412), secs=14.2)
r.say(
    "Found it. `ParseRow` does `decimal.Parse(f[2])` with the current culture. docker-compose sets `DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1`, "
    "so on the Linux server the culture is invariant: `,` is the *thousands* separator there and \"12,5\" becomes 125. On the old Windows "
    "server the culture was de-DE, so it worked by accident.\n\nThe SAP file also has thousands separators with dots: 2,216 of the 80,411 rows "
    "look like `1.250,000`. So: I parse the quantity explicitly with de-DE number format (`,` decimal, `.` thousands), independent of the server "
    "culture. With invariant globalization mode there are no culture data, so I build a fixed `NumberFormatInfo` instead of `CultureInfo(\"de-DE\")`. "
    "First a test that shows the bug. 34 tests pass today.",
    reasoning="**Culture-independent parsing**\n\nInvariant globalization mode: CultureInfo(\"de-DE\") would throw CultureNotFoundException, so a hand-made NumberFormatInfo.",
)
r.patch([("update", TST, [("    [Fact]\n    public void TrimsSkuAndUnit()", "    [Theory]\n    [InlineData(\"12,5\", 12.5)]\n    [InlineData(\"1.250,000\", 1250)]\n    [InlineData(\"3,75\", 3.75)]\n    [InlineData(\"-4,5\", -4.5)]\n    public void ParsesSapDecimalComma(string raw, decimal expected)\n    {\n        var row = StockImporter.ParseRow($\"A-1002;3;{raw};KG\");\n        Assert.Equal(expected, row.Quantity);\n    }\n\n    [Fact]\n    public void TrimsSkuAndUnit()")])])
r.run(
    "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 dotnet test --filter ParseRowTests",
    "  Determining projects to restore...\n  All projects are up-to-date for restore.\n"
    "  StockSync.Tests -> /home/tkoehler/repos/stocksync/tests/StockSync.Tests/bin/Debug/net8.0/StockSync.Tests.dll\n"
    "Test run for /home/tkoehler/repos/stocksync/tests/StockSync.Tests/bin/Debug/net8.0/StockSync.Tests.dll (.NETCoreApp,Version=v8.0)\n"
    "VSTest version 17.11.1 (x64)\n\nStarting test execution, please wait...\nA total of 1 test files matched the specified pattern.\n"
    "[xUnit.net 00:00:00.31]     StockSync.Tests.ParseRowTests.ParsesSapDecimalComma(raw: \"12,5\", expected: 12.5) [FAIL]\n"
    "[xUnit.net 00:00:00.31]     StockSync.Tests.ParseRowTests.ParsesSapDecimalComma(raw: \"1.250,000\", expected: 1250) [FAIL]\n"
    "[xUnit.net 00:00:00.32]     StockSync.Tests.ParseRowTests.ParsesSapDecimalComma(raw: \"3,75\", expected: 3.75) [FAIL]\n"
    "[xUnit.net 00:00:00.32]     StockSync.Tests.ParseRowTests.ParsesSapDecimalComma(raw: \"-4,5\", expected: -4.5) [FAIL]\n"
    "  Failed StockSync.Tests.ParseRowTests.ParsesSapDecimalComma(raw: \"12,5\", expected: 12.5) [4 ms]\n"
    "  Error Message:\n   Assert.Equal() Failure: Values differ\nExpected: 12.5\nActual:   125\n"
    "  Stack Trace:\n     at StockSync.Tests.ParseRowTests.ParsesSapDecimalComma(String raw, Decimal expected) in /home/tkoehler/repos/stocksync/tests/StockSync.Tests/ParseRowTests.cs:line 22\n"
    "   at System.RuntimeMethodHandle.InvokeMethod(Object target, Void** arguments, Signature sig, Boolean isConstructor)\n"
    "   at System.Reflection.MethodBaseInvoker.InvokeDirectByRefWithFewArgs(Object obj, Span`1 copyOfArgs, BindingFlags invokeAttr)\n"
    "  Failed StockSync.Tests.ParseRowTests.ParsesSapDecimalComma(raw: \"1.250,000\", expected: 1250) [< 1 ms]\n"
    "  Error Message:\n   System.FormatException : The input string '1.250,000' was not in a correct format.\n"
    "  Stack Trace:\n     at System.Number.ThrowFormatException[TChar](ReadOnlySpan`1 value)\n     at System.Decimal.Parse(String s)\n"
    "   at StockSync.Import.StockImporter.ParseRow(String line) in /home/tkoehler/repos/stocksync/src/StockSync/Import/StockImporter.cs:line 52\n"
    "  Failed StockSync.Tests.ParseRowTests.ParsesSapDecimalComma(raw: \"3,75\", expected: 3.75) [< 1 ms]\n"
    "  Error Message:\n   Assert.Equal() Failure: Values differ\nExpected: 3.75\nActual:   375\n"
    "  Failed StockSync.Tests.ParseRowTests.ParsesSapDecimalComma(raw: \"-4,5\", expected: -4.5) [< 1 ms]\n"
    "  Error Message:\n   Assert.Equal() Failure: Values differ\nExpected: -4.5\nActual:   -45\n\n"
    "Failed!  - Failed:     4, Passed:     2, Skipped:     0, Total:     6, Duration: 38 ms - StockSync.Tests.dll (net8.0)\n",
    code=1,
    secs=9.8,
)
r.patch(
    [
        (
            "update",
            IMP,
            [
                ("public sealed class StockImporter(StockDbContext db, ILogger<StockImporter> log)\n{\n",
                 "public sealed class StockImporter(StockDbContext db, ILogger<StockImporter> log)\n{\n"
                 "    // SAP writes German numbers (\"1.250,000\"). Fixed format, never the server culture: the Linux\n"
                 "    // containers run with invariant globalization, where \",\" is the thousands separator.\n"
                 "    private static readonly NumberFormatInfo SapNumbers = new()\n    {\n"
                 "        NumberDecimalSeparator = \",\",\n        NumberGroupSeparator = \".\",\n        NegativeSign = \"-\",\n    };\n\n"),
                ("            WarehouseId: int.Parse(f[1]),\n            Quantity: decimal.Parse(f[2]),\n",
                 "            WarehouseId: int.Parse(f[1], CultureInfo.InvariantCulture),\n            Quantity: decimal.Parse(f[2], NumberStyles.Number, SapNumbers),\n"),
            ],
        )
    ]
)
r.run("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1 dotnet test", dotnet_ok(38, 405), secs=12.9)
r.run("dotnet test", dotnet_ok(38, 398), secs=12.1)
r.say(
    "Fixed. `ParseRow` parses the quantity with a fixed `NumberFormatInfo` (`,` decimal, `.` thousands) and the warehouse id with the invariant "
    "culture, so the result does not depend on the server. The test failed before the fix exactly like production (`Expected: 12.5 Actual: 125`, "
    "and `1.250,000` threw a FormatException) and passes now, with invariant globalization on and off. 38 tests (34 + 4 cases). No database in these tests."
)

# ------------------------------------------------------------------ turn 2
r.user(
    "Super, danke. Second thing: the import of the big file (80k rows) takes 11 minutes in production. So: please make it faster. "
    "Is ok to use EFCore.BulkExtensions? No wait, forget it, the license is not free for commercial use and we have no budget. Plain EF Core please."
)
r.run("rg -n 'SaveChanges' src", "src/StockSync/Import/StockImporter.cs:48:            await db.SaveChangesAsync(ct);\n")
r.run("rg -n 'FindAsync|AsNoTracking|AutoDetectChanges' src", "src/StockSync/Import/StockImporter.cs:35:            var item = await db.StockItems.FindAsync([row.Sku, row.WarehouseId], ct);\n")
r.run("cat src/StockSync/Data/StockDbContext.cs",
      "using Microsoft.EntityFrameworkCore;\n\nnamespace StockSync.Data;\n\npublic sealed class StockDbContext(DbContextOptions<StockDbContext> options) : DbContext(options)\n{\n"
      "    public DbSet<StockItem> StockItems => Set<StockItem>();\n    public DbSet<Warehouse> Warehouses => Set<Warehouse>();\n\n"
      "    protected override void OnModelCreating(ModelBuilder b)\n    {\n        b.Entity<StockItem>().HasKey(i => new { i.Sku, i.WarehouseId });\n"
      "        b.Entity<StockItem>().Property(i => i.Quantity).HasPrecision(18, 3);\n    }\n}\n")
r.run("docker compose up -d db && time dotnet run --project src/StockSync -- import samples/sap-export-2025-11-17.csv",
      " Container stocksync-db-1  Started\ninserted 3127, updated 77282, skipped 2\n\nreal\t10m55.312s\nuser\t1m41.220s\nsys\t0m9.874s\n", secs=655.0)
r.run("docker compose logs db --since 12m | rg -c 'sp_executesql'", "160826\n")
r.say(
    "The importer does one `FindAsync` and one `SaveChangesAsync` per row: for the 80,411-row sample that is ~160k round trips "
    "(the SQL Server log shows 160,826 `sp_executesql`). Locally it took 10 min 55 s, like production.\n\n"
    "Plan without extra packages: load all existing items of the file's warehouses in one query into a dictionary, apply the rows in memory, "
    "and `SaveChangesAsync` once per batch of 1,000 rows with `AutoDetectChangesEnabled = false`. For the tests I would use SQLite in-memory "
    "(`Microsoft.EntityFrameworkCore.Sqlite`, `Data Source=:memory:`): it is not a server, runs in CI, and unlike the InMemory provider it checks keys. Is that ok?",
)
r.user("sqlite in-memory is ok, it is not a server. go")
BATCH = (
    "    public int BatchSize { get; init; } = 1000;\n\n"
    "    public async Task<ImportResult> ImportAsync(TextReader reader, CancellationToken ct = default)\n    {\n"
    "        var warehouses = await db.Warehouses.Select(w => w.Id).ToHashSetAsync(ct);\n"
    "        var existing = await db.StockItems.ToDictionaryAsync(i => (i.Sku, i.WarehouseId), ct);\n"
    "        db.ChangeTracker.AutoDetectChangesEnabled = false;\n"
    "        int inserted = 0, updated = 0, skipped = 0, pending = 0;\n"
    "        string? line = await reader.ReadLineAsync(ct); // header\n"
    "        while ((line = await reader.ReadLineAsync(ct)) is not null)\n        {\n            var row = ParseRow(line);\n"
    "            if (!warehouses.Contains(row.WarehouseId))\n            {\n"
    "                log.LogWarning(\"Unknown warehouse {Warehouse} for {Sku}, row skipped\", row.WarehouseId, row.Sku);\n"
    "                skipped++;\n                continue;\n            }\n"
    "            if (existing.TryGetValue((row.Sku, row.WarehouseId), out var item))\n            {\n"
    "                item.Quantity = row.Quantity;\n                item.Unit = row.Unit;\n                db.Entry(item).State = EntityState.Modified;\n                updated++;\n            }\n"
    "            else\n            {\n"
    "                db.StockItems.Add(new StockItem { Sku = row.Sku, WarehouseId = row.WarehouseId, Quantity = row.Quantity, Unit = row.Unit });\n"
    "                inserted++;\n            }\n"
    "            if (++pending == BatchSize)\n            {\n                await db.SaveChangesAsync(ct);\n                pending = 0;\n            }\n        }\n"
    "        await db.SaveChangesAsync(ct);\n        return new ImportResult(inserted, updated, skipped);\n    }\n"
)
old_import = F.IMPORTER[F.IMPORTER.index("    public async Task<ImportResult> ImportAsync"): F.IMPORTER.index("    internal static StockRow ParseRow")]
r.patch([("update", IMP, [(old_import, BATCH + "\n")])], reasoning="**Batching**\n\nOne query for existing items, change tracking off, save every 1000 rows.")
IMPORT_TESTS = '''using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Logging.Abstractions;
using StockSync.Data;
using StockSync.Import;
using Xunit;

namespace StockSync.Tests;

/// <summary>Runs the importer against SQLite in-memory: no server, works in CI.</summary>
public sealed class ImportTests : IDisposable
{
    private readonly SqliteConnection _conn = new("Data Source=:memory:");
    private readonly StockDbContext _db;

    public ImportTests()
    {
        _conn.Open();
        _db = new StockDbContext(new DbContextOptionsBuilder<StockDbContext>().UseSqlite(_conn).Options);
        _db.Database.EnsureCreated();
        _db.Warehouses.AddRange(new Warehouse { Id = 1 }, new Warehouse { Id = 3 });
        _db.StockItems.Add(new StockItem { Sku = "A-1001", WarehouseId = 3, Quantity = 1m, Unit = "ST" });
        _db.SaveChanges();
    }

    private Task<ImportResult> Import(string csv, int batch = 1000) =>
        new StockImporter(_db, NullLogger<StockImporter>.Instance) { BatchSize = batch }
            .ImportAsync(new StringReader("MATNR;LGNUM;MENGE;MEINS\\n" + csv));

    [Fact]
    public async Task InsertsUpdatesAndSkips()
    {
        var result = await Import("A-1001;3;40;ST\\nA-1002;3;12,5;KG\\nC-9;9;1;ST\\n");
        Assert.Equal(new ImportResult(1, 1, 1), result);
        Assert.Equal(12.5m, (await _db.StockItems.FindAsync("A-1002", 3))!.Quantity);
    }

    [Fact]
    public async Task BatchBoundaryDoesNotLoseRows()
    {
        var rows = string.Concat(Enumerable.Range(0, 2501).Select(i => $"X-{i};1;{i},5;ST\\n"));
        var result = await Import(rows, batch: 1000);
        Assert.Equal(2501, result.Inserted);
        Assert.Equal(2502, await _db.StockItems.CountAsync());
    }

    [Fact]
    public async Task SameSkuTwiceInFile()
    {
        var result = await Import("A-1002;3;5;KG\\nA-1002;3;7;KG\\n");
        Assert.Equal(7m, (await _db.StockItems.FindAsync("A-1002", 3))!.Quantity);
    }

    public void Dispose()
    {
        _db.Dispose();
        _conn.Dispose();
    }
}
'''
r.patch([("add", "tests/StockSync.Tests/ImportTests.cs", IMPORT_TESTS)])
r.run("dotnet add tests/StockSync.Tests package Microsoft.EntityFrameworkCore.Sqlite --version 8.0.10 | tail -2",
      "info : PackageReference for package 'Microsoft.EntityFrameworkCore.Sqlite' version '8.0.10' added to file '/home/tkoehler/repos/stocksync/tests/StockSync.Tests/StockSync.Tests.csproj'.\ninfo : Writing assets file to disk. Path: /home/tkoehler/repos/stocksync/tests/StockSync.Tests/obj/project.assets.json\n", secs=6.3)
r.run(
    "dotnet test",
    "  Determining projects to restore...\n  Restored /home/tkoehler/repos/stocksync/tests/StockSync.Tests/StockSync.Tests.csproj (in 412 ms).\n"
    "  StockSync -> /home/tkoehler/repos/stocksync/src/StockSync/bin/Debug/net8.0/StockSync.dll\n"
    "  StockSync.Tests -> /home/tkoehler/repos/stocksync/tests/StockSync.Tests/bin/Debug/net8.0/StockSync.Tests.dll\n"
    "Test run for /home/tkoehler/repos/stocksync/tests/StockSync.Tests/bin/Debug/net8.0/StockSync.Tests.dll (.NETCoreApp,Version=v8.0)\n"
    "VSTest version 17.11.1 (x64)\n\nStarting test execution, please wait...\nA total of 1 test files matched the specified pattern.\n"
    "[xUnit.net 00:00:00.74]     StockSync.Tests.ImportTests.SameSkuTwiceInFile [FAIL]\n"
    "  Failed StockSync.Tests.ImportTests.SameSkuTwiceInFile [61 ms]\n  Error Message:\n"
    "   System.InvalidOperationException : The instance of entity type 'StockItem' cannot be tracked because another instance with the key value '{Sku: A-1002, WarehouseId: 3}' is already being tracked. When attaching existing entities, ensure that only one entity instance with a given key value is attached.\n"
    "  Stack Trace:\n"
    "     at Microsoft.EntityFrameworkCore.ChangeTracking.Internal.IdentityMap`1.ThrowIdentityConflict(InternalEntityEntry entry)\n"
    "   at Microsoft.EntityFrameworkCore.ChangeTracking.Internal.IdentityMap`1.Add(TKey key, InternalEntityEntry entry, Boolean updateDuplicate)\n"
    "   at Microsoft.EntityFrameworkCore.ChangeTracking.Internal.StateManager.StartTracking(InternalEntityEntry entry)\n"
    "   at Microsoft.EntityFrameworkCore.ChangeTracking.Internal.InternalEntityEntry.SetEntityState(EntityState oldState, EntityState newState, Boolean acceptChanges, Boolean modifyProperties)\n"
    "   at Microsoft.EntityFrameworkCore.Internal.InternalDbSet`1.Add(TEntity entity)\n"
    "   at StockSync.Import.StockImporter.ImportAsync(TextReader reader, CancellationToken ct) in /home/tkoehler/repos/stocksync/src/StockSync/Import/StockImporter.cs:line 49\n"
    "   at StockSync.Tests.ImportTests.SameSkuTwiceInFile() in /home/tkoehler/repos/stocksync/tests/StockSync.Tests/ImportTests.cs:line 50\n"
    "--- End of stack trace from previous location ---\n\n"
    "Failed!  - Failed:     1, Passed:    40, Skipped:     0, Total:    41, Duration: 1 s - StockSync.Tests.dll (net8.0)\n",
    code=1,
    secs=15.8,
)
r.run("cut -d';' -f1,2 samples/sap-export-2025-11-17.csv | sort | uniq -d | wc -l", "14\n")
r.say(
    "The batching works, but a SKU that appears twice in one file now fails: the second row is added again while the first is still only "
    "tracked, not saved (`The instance of entity type 'StockItem' cannot be tracked because another instance with the key value '{Sku: A-1002, WarehouseId: 3}' is already being tracked`). "
    "The old code saved after each row, so it never saw this. The real sample has 14 such duplicate SKU+warehouse pairs.\n\n"
    "Question: when the same SKU and warehouse are twice in the file, which row should win? The old behaviour was: the last one."
)
r.user("duplicates: the last line wins, so like before. SAP writes corrections at the end of the file.")
r.patch([("update", IMP, [
    ("                db.StockItems.Add(new StockItem { Sku = row.Sku, WarehouseId = row.WarehouseId, Quantity = row.Quantity, Unit = row.Unit });\n                inserted++;\n",
     "                var added = new StockItem { Sku = row.Sku, WarehouseId = row.WarehouseId, Quantity = row.Quantity, Unit = row.Unit };\n"
     "                db.StockItems.Add(added);\n                existing[(row.Sku, row.WarehouseId)] = added; // a later duplicate updates it: last line wins\n                inserted++;\n"),
])])
r.run("dotnet test", dotnet_ok(41, 1102), secs=14.9)
r.run("dotnet run -c Release --project src/StockSync -- import samples/sap-export-2025-11-17.csv && docker compose logs db --since 2m | rg -c 'sp_executesql'",
      "inserted 0, updated 80409, skipped 2\n81\n", secs=43.1)
r.run("for b in 500 1000 2000 5000; do STOCKSYNC__IMPORT__BATCHSIZE=$b /usr/bin/time -f \"batch $b: %e s\" dotnet run -c Release --project src/StockSync -- import samples/sap-export-2025-11-17.csv > /dev/null; done",
      "batch 500: 46.20 s\nbatch 1000: 41.31 s\nbatch 2000: 39.84 s\nbatch 5000: 40.92 s\n", secs=175.0)
r.say(
    "Fixed and measured against the local SQL Server container with the 80,411-row sample:\n\n"
    "- before: 10 min 55 s, ~160k statements\n- now: 41.3 s with batches of 1,000 (81 statements)\n\n"
    "Batch size: 500 → 46.2 s, 1,000 → 41.3 s, 2,000 → 39.8 s, 5,000 → 40.9 s. So: I keep 1,000, bigger batches win almost nothing and hold "
    "larger transactions on the production DB. Duplicates: the last line wins like before (the added item goes into the dictionary, a later row updates it). "
    "41 tests pass, all without a server (SQLite in-memory)."
)

# ------------------------------------------------------------------ turn 3
r.user("Very good. Next: a `--dry-run` option for the import command: it shows what would change, but writes nothing.")
r.cat(CLI)
r.patch([("update", IMP, [
    ("    public int BatchSize { get; init; } = 1000;\n", "    public int BatchSize { get; init; } = 1000;\n\n    /// <summary>Count what would change, write nothing.</summary>\n    public bool DryRun { get; init; }\n"),
    ("            if (++pending == BatchSize)\n", "            if (!DryRun && ++pending == BatchSize)\n"),
    ("        await db.SaveChangesAsync(ct);\n        return new ImportResult", "        if (!DryRun)\n        {\n            await db.SaveChangesAsync(ct);\n        }\n        return new ImportResult"),
])])
r.patch([("update", CLI, [
    ('        var cmd = new Command("import", "Import an ERP stock export") { file };\n        cmd.SetHandler(async (FileInfo f) =>\n',
     '        var dryRun = new Option<bool>("--dry-run", "Show what would change, write nothing");\n        var cmd = new Command("import", "Import an ERP stock export") { file, dryRun };\n        cmd.SetHandler(async (FileInfo f, bool dry) =>\n'),
    ("            var importer = scope.ServiceProvider.GetRequiredService<StockImporter>();\n",
     "            var importer = scope.ServiceProvider.GetRequiredService<StockImporter>() with { };\n"),
    ('            Console.WriteLine($"inserted {result.Inserted}, updated {result.Updated}, skipped {result.Skipped}");\n        }, file);',
     '            var verb = dry ? "would insert" : "inserted";\n            Console.WriteLine($"{verb} {result.Inserted}, updated {result.Updated}, skipped {result.Skipped}");\n        }, file, dryRun);'),
])])
r.run("dotnet build src/StockSync 2>&1 | rg 'error' | head -3",
      "/home/tkoehler/repos/stocksync/src/StockSync/Cli/ImportCommand.cs(17,88): error CS8858: The receiver type 'StockImporter' is not a valid record type and is not a struct type. [/home/tkoehler/repos/stocksync/src/StockSync/StockSync.csproj]\n", code=0)
r.patch([("update", CLI, [
    ("            var importer = scope.ServiceProvider.GetRequiredService<StockImporter>() with { };\n",
     "            var importer = ActivatorUtilities.CreateInstance<StockImporter>(scope.ServiceProvider);\n            importer = new StockImporter(scope.ServiceProvider.GetRequiredService<StockSync.Data.StockDbContext>(), scope.ServiceProvider.GetRequiredService<Microsoft.Extensions.Logging.ILogger<StockImporter>>()) { DryRun = dry };\n"),
])])
r.run("dotnet build src/StockSync 2>&1 | tail -3", "Build succeeded.\n    0 Warning(s)\n    0 Error(s)\n")
r.patch([("update", CLI, [
    ("            var importer = ActivatorUtilities.CreateInstance<StockImporter>(scope.ServiceProvider);\n            importer = new StockImporter(",
     "            var importer = new StockImporter("),
])])
r.patch([("update", "tests/StockSync.Tests/ImportTests.cs", [
    ("    public void Dispose()\n", "    [Fact]\n    public async Task DryRunWritesNothing()\n    {\n        var importer = new StockImporter(_db, NullLogger<StockImporter>.Instance) { DryRun = true };\n"
     "        var result = await importer.ImportAsync(new StringReader(\"MATNR;LGNUM;MENGE;MEINS\\nA-1001;3;40;ST\\nA-1009;1;2;ST\\n\"));\n"
     "        Assert.Equal(new ImportResult(1, 1, 0), result);\n        _db.ChangeTracker.Clear();\n"
     "        Assert.Equal(1m, (await _db.StockItems.FindAsync(\"A-1001\", 3))!.Quantity);\n        Assert.Null(await _db.StockItems.FindAsync(\"A-1009\", 1));\n    }\n\n    public void Dispose()\n"),
])])
r.run("dotnet test", dotnet_ok(42, 1130), secs=14.4)
r.run("dotnet run -c Release --project src/StockSync -- import --dry-run samples/sap-export-2025-11-17.csv", "would insert 0, updated 80409, skipped 2\n", secs=3.9)
r.say(
    "`--dry-run` done: `StockImporter.DryRun` skips every `SaveChangesAsync`, and the command prints `would insert ...`. The first version used a "
    "`with { }` on the importer, which is not a record (`error CS8858`); it now constructs the importer with `DryRun = dry`. "
    "On the sample: would insert 0, update 80,409, skip 2, in 3.9 s. New test `DryRunWritesNothing`; 42 tests pass."
)

# ------------------------------------------------------------------ turn 4
r.user(
    "The 2 skipped rows with unknown warehouse: now they are only a warning in the log, nobody reads it. Please write them in a file "
    "`import-errors.csv` next to the input file. Hmm, no: the input share is read-only for the service user. So: write it to "
    "/var/lib/stocksync/errors/, with the input file name and the time in the name."
)
r.run("rg -n 'LogWarning' src", "src/StockSync/Import/StockImporter.cs:32:                log.LogWarning(\"Unknown warehouse {Warehouse} for {Sku}, row skipped\", row.WarehouseId, row.Sku);\n")
r.run("rg -n 'var/lib/stocksync' -g '!bin' -g '!obj' .", "docker-compose.yml:19:      - stocksync-data:/var/lib/stocksync\n")
r.patch([("update", IMP, [
    ("public sealed record ImportResult(int Inserted, int Updated, int Skipped);\n",
     "public sealed record ImportResult(int Inserted, int Updated, int Skipped)\n{\n    /// <summary>The rows that were skipped, with the reason (written to the error file by the CLI).</summary>\n    public IReadOnlyList<(string Line, string Reason)> Rejected { get; init; } = [];\n}\n"),
    ("        int inserted = 0, updated = 0, skipped = 0, pending = 0;\n", "        int inserted = 0, updated = 0, skipped = 0, pending = 0;\n        var rejected = new List<(string, string)>();\n"),
    ("                skipped++;\n", "                rejected.Add((line, $\"unknown warehouse {row.WarehouseId}\"));\n                skipped++;\n"),
    ("        return new ImportResult(inserted, updated, skipped);\n", "        return new ImportResult(inserted, updated, skipped) { Rejected = rejected };\n"),
])])
r.patch([("update", CLI, [
    ('            Console.WriteLine($"{verb} {result.Inserted}, updated {result.Updated}, skipped {result.Skipped}");\n',
     '            Console.WriteLine($"{verb} {result.Inserted}, updated {result.Updated}, skipped {result.Skipped}");\n'
     '            if (result.Rejected.Count > 0)\n            {\n'
     '                // The input share is read-only for the service user, so errors go to the data volume.\n'
     '                var dir = Directory.CreateDirectory("/var/lib/stocksync/errors");\n'
     '                var name = $"{Path.GetFileNameWithoutExtension(f.Name)}-{DateTime.UtcNow:yyyyMMdd-HHmmss}-errors.csv";\n'
     '                await File.WriteAllLinesAsync(Path.Combine(dir.FullName, name), result.Rejected.Select(r => $"{r.Line};{r.Reason}"));\n'
     '                Console.WriteLine($"{result.Rejected.Count} rejected rows written to {Path.Combine(dir.FullName, name)}");\n            }\n'),
])])
r.run("dotnet test", dotnet_ok(42, 1121), secs=14.0)
r.run("sudo -u stocksync dotnet run -c Release --project src/StockSync -- import samples/sap-export-2025-11-17.csv && cat /var/lib/stocksync/errors/sap-export-2025-11-17-*-errors.csv",
      "inserted 0, updated 80409, skipped 2\n2 rejected rows written to /var/lib/stocksync/errors/sap-export-2025-11-17-20251118-153412-errors.csv\nK-7781;12;4;ST;unknown warehouse 12\nK-7782;12;1,5;KG;unknown warehouse 12\n", secs=44.0)
r.say(
    "Rejected rows now go to `/var/lib/stocksync/errors/<input name>-<UTC yyyyMMdd-HHmmss>-errors.csv`, each line is the original row plus the "
    "reason. The importer collects them in `ImportResult.Rejected`; the CLI writes the file only when there are rejected rows (and also in "
    "`--dry-run`, so you can check a file before importing). Both rows of the sample are warehouse 12, which does not exist in the DB. 42 tests pass."
)

# ------------------------------------------------------------------ turn 5
r.user(
    "Warehouse 12 is the new Lager in Hamburg, it comes next month. OK. One more for later, not now: SAP will send also the Lagerplatz (bin "
    "location) column from January, then we need it in StockItem. Please write it down. And make a commit, message in english."
)
r.run("git status --short", " M src/StockSync/Cli/ImportCommand.cs\n M src/StockSync/Import/StockImporter.cs\n M tests/StockSync.Tests/ParseRowTests.cs\n M tests/StockSync.Tests/StockSync.Tests.csproj\n?? tests/StockSync.Tests/ImportTests.cs\n")
r.run("git add -A && git commit -qm 'Import: parse SAP decimal comma culture-independently, batch saves (11 min -> 41 s), --dry-run, error file' && git log --oneline -1",
      "a41d9e2 (HEAD -> main) Import: parse SAP decimal comma culture-independently, batch saves (11 min -> 41 s), --dry-run, error file\n")
r.say(
    "Committed as a41d9e2 (not pushed).\n\nNoted for later (not started): from January SAP sends the Lagerplatz / bin location column; then `StockItem` needs a "
    "column for it, with an EF migration, and `ParseRow` must read a 5th field. Until then warehouse 12 (Hamburg) rows are rejected into the error file."
)

r.save(HERE / "session.jsonl")

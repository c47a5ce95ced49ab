# ruff: noqa: E501
"""Files of the StockSync repository at the start of the session (written by hand)."""

IMPORTER = '''using System.Globalization;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Logging;
using StockSync.Data;

namespace StockSync.Import;

public sealed record ImportResult(int Inserted, int Updated, int Skipped);

/// <summary>Reads the ERP stock export (SAP, semicolon separated) and writes it to the warehouse DB.</summary>
public sealed class StockImporter(StockDbContext db, ILogger<StockImporter> log)
{
    public async Task<ImportResult> ImportAsync(TextReader reader, CancellationToken ct = default)
    {
        var warehouses = await db.Warehouses.Select(w => w.Id).ToHashSetAsync(ct);
        int inserted = 0, updated = 0, skipped = 0;
        string? line = await reader.ReadLineAsync(ct); // header
        while ((line = await reader.ReadLineAsync(ct)) is not null)
        {
            var row = ParseRow(line);
            if (!warehouses.Contains(row.WarehouseId))
            {
                log.LogWarning("Unknown warehouse {Warehouse} for {Sku}, row skipped", row.WarehouseId, row.Sku);
                skipped++;
                continue;
            }
            var item = await db.StockItems.FindAsync([row.Sku, row.WarehouseId], ct);
            if (item is null)
            {
                db.StockItems.Add(new StockItem { Sku = row.Sku, WarehouseId = row.WarehouseId, Quantity = row.Quantity, Unit = row.Unit });
                inserted++;
            }
            else
            {
                item.Quantity = row.Quantity;
                item.Unit = row.Unit;
                updated++;
            }
            await db.SaveChangesAsync(ct);
        }
        return new ImportResult(inserted, updated, skipped);
    }

    internal static StockRow ParseRow(string line)
    {
        var f = line.Split(';');
        return new StockRow(
            Sku: f[0].Trim(),
            WarehouseId: int.Parse(f[1]),
            Quantity: decimal.Parse(f[2]),
            Unit: f[3].Trim());
    }
}

public sealed record StockRow(string Sku, int WarehouseId, decimal Quantity, string Unit);
'''

TESTS = '''using StockSync.Import;
using Xunit;

namespace StockSync.Tests;

public class ParseRowTests
{
    [Fact]
    public void ParsesIntegerQuantity()
    {
        var row = StockImporter.ParseRow("A-1001;3;40;ST");
        Assert.Equal(new StockRow("A-1001", 3, 40m, "ST"), row);
    }

    [Fact]
    public void TrimsSkuAndUnit()
    {
        var row = StockImporter.ParseRow(" A-1001 ;3;40; ST ");
        Assert.Equal("A-1001", row.Sku);
        Assert.Equal("ST", row.Unit);
    }
}
'''

CLI = '''using System.CommandLine;
using Microsoft.Extensions.DependencyInjection;
using StockSync.Import;

namespace StockSync.Cli;

public static class ImportCommand
{
    public static Command Build(IServiceProvider services)
    {
        var file = new Argument<FileInfo>("file", "SAP stock export (.csv)");
        var cmd = new Command("import", "Import an ERP stock export") { file };
        cmd.SetHandler(async (FileInfo f) =>
        {
            using var scope = services.CreateScope();
            var importer = scope.ServiceProvider.GetRequiredService<StockImporter>();
            using var reader = f.OpenText();
            var result = await importer.ImportAsync(reader);
            Console.WriteLine($"inserted {result.Inserted}, updated {result.Updated}, skipped {result.Skipped}");
        }, file);
        return cmd;
    }
}
'''

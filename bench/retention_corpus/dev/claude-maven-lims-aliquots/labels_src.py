# ruff: noqa: E501
"""Labels for claude-maven-lims-aliquots, written by hand while reading the transcript. Run to write labels.json."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))
from synth.labels_io import dump  # noqa: E402
from synth.labels_io import fact as f  # noqa: E402

META = {
    "title": "lims-core (Spring Boot LIMS): sample aliquoting endpoint with remainder-in-parent volumes, V16 migration after a rebase, 409/422 problem details, Luhn check-digit barcodes (format changed once); PDF labels deferred",
    "format": "claude",
    "transcript": "session.jsonl",
    "origin": "synthetic: written by hand for the heldout6b test split",
    "voice": "lab-informatics lead, one long paragraph per turn with the rules buried mid-paragraph, \"decision: ...\", changes the barcode format once",
    "toolchain": "Java 17 (Temurin), Maven 3.9 + Spring Boot 3.3.5, Flyway, JPA/Hibernate, Testcontainers PostgreSQL 16 (failsafe ITs), JUnit 5 + AssertJ, maven-checkstyle-plugin (Explore sub-agent via Task, ~30-line report)",
}
COMPACTIONS = [
    ("Baseline: `mvn verify` green (38 unit tests, 21 ITs", 1200),
    ("Aliquoting works end to end:", 1200),
    ("Barcodes are now `LAB-000005-01-7`", 1200),
]
FACTS = [
    f("m01", "request", "must", "Today I'd like to get aliquoting into lims-core", "Aliquoting: POST /api/samples/{id}/aliquots with a count and a volume per aliquot splits a received sample into N child samples with their own barcodes; the parent keeps what is left (called by the Hamilton robots).", [r"aliquot", r"POST|/api/samples|count|split|child"], "done"),
    f("m02", "constraint", "must", "we cannot change any existing response shape", "The robots are on the v1 client: no existing response shape may change; only new endpoints and new optional fields.", [r"response|shape|\bv1\b|robots|Hamilton", r"chang|existing|new endpoints?|optional"]),
    f("m03", "constraint", "must", "The service runs on Temurin 17 in production", "Production runs Temurin 17 (no 21 before summer): nothing from Java 21.", [r"\b17\b|Java 21|\b21\b", r"Java|Temurin|nothing|no\b"]),
    f("m04", "constraint", "must", "volumes are always BigDecimal microlitres with one decimal", "Volumes are BigDecimal microlitres with one decimal, never double.", [r"BigDecimal", r"volume|double|decimal|microlit"]),
    f("m05", "constraint", "must", "Flyway migrations that are merged are never edited", "Merged Flyway migrations are never edited; every change is a new V-file.", [r"Flyway|migration|V-?file", r"never|new|edit"]),
    f("m06", "constraint", "should", "so no Lombok in new classes please", "No Lombok in new classes (the team is removing it); plain getters.", [r"Lombok", r"new|\bno\b|without|getters"]),
    f("m07", "finding", "should", "Survey of lims-core (nothing changed).", "Sub-agent: Sample has @Version optimistic locking, volume_ul numeric(10,1), no parent relation yet; barcodes come from BarcodeGenerator (LAB-000123); AuditService.record writes audit events (payload jsonb).", [r"@Version|optimistic|parent_id|BarcodeGenerator", r"Sample|lock|barcode"]),
    f("m08", "finding", "should", "web/ProblemAdvice.java: @RestControllerAdvice returning RFC 7807 ProblemDetail", "ProblemAdvice returns RFC 7807 ProblemDetail with type URIs under https://lims.vialab.eu/problems/; there was no handler for optimistic-lock failures (they surfaced as 500).", [r"ProblemDetail|7807|ProblemAdvice|lims\.vialab\.eu/problems", r"500|optimistic|handler|type"]),
    f("m09", "finding", "should", "`mvn verify` runs surefire, failsafe and checkstyle", "mvn verify runs surefire (*Test), failsafe (*IT on Testcontainers postgres:16-alpine via support/PostgresIT) and checkstyle (config/checkstyle.xml, Javadoc on public methods, failOnViolation).", [r"checkstyle|failsafe|Testcontainers|postgres:16-alpine", r"verify|Javadoc|IT"]),
    f("m10", "finding", "nice", "Remote branch origin/feature/sample-comments exists", "Lombok is in 11 classes; origin/feature/sample-comments was not merged and could also add a V15 (collision risk).", [r"sample-comments|V15|11 classes", r"collid|branch|Lombok|merge"]),
    f("m36", "finding", "nice", "spring.jpa.hibernate.ddl-auto=validate", "application.yml has hibernate ddl-auto=validate: every new entity field needs its column in a migration or the context fails to start.", [r"ddl-auto|validate", r"migration|column|entity|start"]),
    f("m11", "value", "nice", "Tests run: 21, Failures: 0", "Baseline: mvn verify green with 38 unit tests, 21 ITs, 0 checkstyle violations; JDK 17.0.13, Maven 3.9.9.", [r"\b38\b|\b21\b", r"tests?|baseline|BUILD"]),
    f("m12", "command", "should", "mvn -q verify 2>&1 | tail -15", "Build and test: mvn -q verify (unit, ITs, checkstyle); latest 40 unit tests, 26 ITs, 0 violations.", [r"mvn (-q )?verify"]),
    f("m13", "decision", "should", "I like the 409, we had robots retrying on 500s", "Concurrent changes answer 409 (ProblemDetail), because robots retried on 500s for minutes last spring.", [r"409", r"conflict|concurrent|500|retr"], "done"),
    f("m14", "decision", "must", "decision: whatever cannot be divided evenly stays in the parent", "volumeUl is optional; without it the parent volume is divided by N, never rounding a child up: the remainder stays in the parent (100.0 into 3 = 3 x 33.3, parent keeps 0.1).", [r"remainder|stays in the parent|round(ed|ing)? down|33\.3", r"parent|child|divid"]),
    f("m15", "decision", "should", "The barcode idea LAB-000123-01 is nice, go with that", "First barcode format for aliquots: parent barcode plus a two-digit number (LAB-000123-01); replaced by a format with a check digit.", [r"LAB-000123-01|two-digit|-01\b", r"barcode|format"], "reversed"),
    f("m16", "request", "should", "Tomasz just merged his sample-comments branch into develop", "Rebase on develop first (Tomasz merged sample-comments) before writing the migration.", [r"rebase|develop|Tomasz", r"sample-comments|develop|first|migration"], "done"),
    f("m17", "value", "must", "the maximum count is 96 because that is one plate", "Maximum aliquot count is 96 (one plate); 97 gets 400.", [r"\b96\b", r"count|plate|max"]),
    f("m18", "finding", "must", "Tomasz's branch brought `V15__sample_comments.sql`", "develop already has V15__sample_comments.sql, so the aliquot migration is V16__aliquots.sql.", [r"V16", r"V15|migration|aliquots"]),
    f("m19", "path", "should", "-- LIMS-482 aliquoting: child samples point to their parent", "V16__aliquots.sql adds sample.parent_id (FK to sample) with a partial index; Sample.java gets a parentId field.", [r"parent_?id|parentId", r"sample|index|V16"]),
    f("m20", "error", "should", "patterns in switch statements are not supported in -source 17", "Compile error: a guarded pattern in switch (Java 21) is not supported with -source 17; replaced by a plain status check.", [r"switch|pattern", r"-source 17|\b17\b|\b21\b"], "fixed"),
    f("m21", "error", "should", "at eu.vialab.lims.sample.AliquotService.split(AliquotService.java:42)", "ArithmeticException 'Non-terminating decimal expansion' when splitting 100.0 into 3; fixed with divide(n, 1, RoundingMode.DOWN).", [r"Non-terminating|ArithmeticException|RoundingMode", r"decimal|divide|DOWN|AliquotService"], "fixed"),
    f("m22", "error", "must", "org.hibernate.StaleObjectStateException: Row was updated", "The concurrent split got 500 instead of 409: Spring throws ObjectOptimisticLockingFailureException (wrapping Hibernate's StaleObjectStateException), not jakarta.persistence.OptimisticLockException; ProblemAdvice now handles Spring's exception.", [r"ObjectOptimisticLockingFailureException|StaleObjectStateException|OptimisticLock", r"500|409|Row was updated|advice|handler"], "fixed"),
    f("m23", "error", "nice", "You have 3 Checkstyle violations", "Checkstyle: 3 MissingJavadocMethod violations on the new controller/service; fixed with Javadoc.", [r"Checkstyle|MissingJavadocMethod", r"Javadoc|violations?"], "fixed"),
    f("m24", "value", "should", "Aliquoting works end to end:", "Error mapping: 422 aliquot-not-possible (not enough volume or wrong status), 409 concurrent-change, 400 for count outside 1..96; 201 returns [{id, barcode, volumeUl, parentId}].", [r"422|aliquot-not-possible", r"409|concurrent|volume|status"]),
    f("m25", "value", "nice", "needs 2.0 ul, sample LAB-000005 has 0.1 ul", "Local check on sample 5: children LAB-000005-01..03 with 33.3 each, parent keeps 0.1; a further 2 x 1.0 request got 422 'needs 2.0 ul, sample LAB-000005 has 0.1 ul'.", [r"0\.1|LAB-000005", r"\bul\b|volume|422|parent"]),
    f("m26", "value", "should", "SAMPLE_ALIQUOTED |         5 |", "Audit event type SAMPLE_ALIQUOTED with payload children ids and volume_ul_each.", [r"SAMPLE_ALIQUOTED"]),
    f("m27", "request", "must", "so she wants a check digit at the end", "Barcode change (Marleen: rack scanners misread the suffix): aliquot barcodes become <parent>-NN-C with a Luhn check digit C over all digits of the barcode; the old format never goes out.", [r"Luhn|check digit", r"barcode|digits|-C\b"], "done"),
    f("m28", "request", "should", "The label printing (PDF labels for the aliquot tubes)", "PDF labels for aliquot tubes: needed, but later and not in this branch (Jonas is redoing the label templates).", [r"label|PDF", r"later|not in this|Jonas|open"], "open"),
    f("m29", "constraint", "should", "leave Lombok in Sample.java alone in this PR", "Leave Lombok in Sample.java alone in this PR (removal is a separate change); Sample.java only gains the parentId field.", [r"Lombok", r"Sample(\.java)?"]),
    f("m30", "error", "should", "but was: \"LAB-000005-01-1\"", "First Luhn version counted letters (Character.getNumericValue('L') = 21): BarcodesTest expected LAB-000005-01-7 but got ...-1; fixed to count only '0'..'9'.", [r"LAB-000005-01-1|getNumericValue|letters", r"LAB-000005-01-7|expected|digit"], "fixed"),
    f("m31", "value", "must", "Barcodes are now `LAB-000005-01-7`", "New aliquot barcodes, e.g. LAB-000005-01-7 (Luhn over 00000501 = 7; LAB-000123-96-8); Barcodes.isValid checks a scanned code.", [r"LAB-000005-01-7|LAB-000123-96(-8)?|isValid", r"check|Luhn|barcode"]),
    f("m32", "state", "should", "[INFO] Tests run: 40, Failures: 0", "mvn verify green: 40 unit tests, 26 ITs, 0 checkstyle violations.", [r"\b40\b|\b26\b", r"tests?|Tests run"]),
    f("m33", "request", "should", "please add a line to the CHANGELOG under 2.14.0", "CHANGELOG 2.14.0 entry for the robots team: the endpoint, 409/422 behaviour and the <parent>-NN-C barcode format.", [r"CHANGELOG", r"2\.14|robots|barcode|endpoint"], "done"),
    f("m34", "state", "must", "b9e4a17 Aliquoting: POST", "Committed b9e4a17 on feature/aliquots (rebased on develop, not pushed).", [r"b9e4a17|feature/aliquots"]),
    f("m35", "request", "nice", "don't push, I'll open the merge request after lunch", "Don't push: the user opens the merge request after lunch and pings Tomasz, since V16 depends on his V15.", [r"push|merge request|\bMR\b", r"don.?t|not|after lunch|Tomasz|I.?ll"]),
]

if __name__ == "__main__":
    dump(HERE, META, COMPACTIONS, FACTS)

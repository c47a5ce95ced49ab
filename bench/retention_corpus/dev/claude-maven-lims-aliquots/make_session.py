# ruff: noqa: E501
"""Writes session.jsonl (+ session/subagents/): a Claude Code session written by hand for the heldout6b split.

A lab-informatics lead who writes one long paragraph per turn, rules buried mid-paragraph and
decisions as "decision: ...", has Claude Code add sample aliquoting to a Spring Boot 3 LIMS service
(Maven, Java 17, Flyway, Testcontainers PostgreSQL, checkstyle), after an Explore sub-agent survey
(Task, ~30-line report). The barcode format changes once. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.claude_writer import ClaudeSession  # noqa: E402

CWD = "/home/ilse/dev/lims-core"
s = ClaudeSession(CWD, "2026-12-01T08:47:30", seed="lims-aliquots", branch="feature/aliquots")

PKG = "src/main/java/eu/vialab/lims"
SAMPLE = f"{PKG}/sample/Sample.java"
SSVC = f"{PKG}/sample/SampleService.java"
ACTRL = f"{PKG}/sample/AliquotController.java"
ASVC = f"{PKG}/sample/AliquotService.java"
AREQ = f"{PKG}/sample/AliquotRequest.java"
BARC = f"{PKG}/sample/Barcodes.java"
ADV = f"{PKG}/web/ProblemAdvice.java"
MIG = "src/main/resources/db/migration/V15__aliquots.sql"
MIG16 = "src/main/resources/db/migration/V16__aliquots.sql"
TEST = "src/test/java/eu/vialab/lims/sample/AliquotControllerIT.java"
BTEST = "src/test/java/eu/vialab/lims/sample/BarcodesTest.java"
POM = "pom.xml"


def sh(cmd: str, out: str, code: int = 0, desc: str = "", text: str | None = None, agent: str | None = None) -> None:
    s.bash(cmd, out, code=code, description=desc, text=text, agent=agent)


s.files.update({
    SAMPLE: """package eu.vialab.lims.sample;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.EnumType;
import jakarta.persistence.Enumerated;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import jakarta.persistence.Version;
import java.math.BigDecimal;
import java.time.Instant;
import lombok.Getter;
import lombok.Setter;

@Entity
@Table(name = "sample")
@Getter
@Setter
public class Sample {
  @Id
  @GeneratedValue(strategy = GenerationType.IDENTITY)
  private Long id;

  @Column(nullable = false, unique = true)
  private String barcode;

  @Column(name = "volume_ul", nullable = false, precision = 10, scale = 1)
  private BigDecimal volumeUl;

  @Enumerated(EnumType.STRING)
  @Column(nullable = false)
  private SampleStatus status;

  @Column(name = "received_at", nullable = false)
  private Instant receivedAt;

  @Version
  private long version;
}
""",
    POM: """<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <parent>
    <groupId>org.springframework.boot</groupId>
    <artifactId>spring-boot-starter-parent</artifactId>
    <version>3.3.5</version>
  </parent>
  <groupId>eu.vialab</groupId>
  <artifactId>lims-core</artifactId>
  <version>2.14.0-SNAPSHOT</version>
  <properties>
    <java.version>17</java.version>
    <testcontainers.version>1.20.3</testcontainers.version>
  </properties>
  <!-- dependencies: web, data-jpa, validation, flyway-core, flyway-database-postgresql, postgresql, lombok (provided), testcontainers postgresql + junit-jupiter -->
  <build>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-checkstyle-plugin</artifactId>
        <version>3.5.0</version>
        <configuration>
          <configLocation>config/checkstyle.xml</configLocation>
          <failOnViolation>true</failOnViolation>
          <violationSeverity>warning</violationSeverity>
        </configuration>
        <executions><execution><phase>verify</phase><goals><goal>check</goal></goals></execution></executions>
      </plugin>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-failsafe-plugin</artifactId>
      </plugin>
    </plugins>
  </build>
</project>
""",
})

# ===================================================================== turn 1
s.user(
    "Morning! Today I'd like to get aliquoting into lims-core: a technician takes a received sample and splits it into N aliquots (child samples) of equal volume, each gets its own barcode and goes on its own rack position later, and the parent keeps whatever is left, the Hamilton robots will call this through the API so it has to be a plain POST /api/samples/{id}/aliquots with the count and the volume per aliquot, "
    "and because the robots are still on the v1 client we cannot change any existing response shape, only add new endpoints and new optional fields. The service runs on Temurin 17 in production (the hospital's platform team will not give us 21 before summer), so please nothing from Java 21, "
    "volumes are always BigDecimal microlitres with one decimal, never double, and Flyway migrations that are merged are never edited, a change is always a new V-file. We are also slowly getting rid of Lombok, so no Lombok in new classes please, plain getters are fine. "
    "Could you first send a sub-agent through the code to tell us how samples, migrations, error handling and the tests are done, and then propose how you'd build it?",
    pause=0,
)
(tid,) = s.assistant(
    "I'll have a sub-agent survey the code base first.",
    calls=[("Task", {"description": "Survey lims-core for aliquoting", "subagent_type": "Explore", "prompt": "In /home/ilse/dev/lims-core (Spring Boot 3, Maven, Java 17, Flyway, PostgreSQL), survey: the Sample entity and SampleService (ids, barcodes, volumes, status, locking), the Flyway migrations (latest version, conventions), error handling (advice, problem details), the test setup (unit vs IT, Testcontainers, MockMvc, fixtures), checkstyle and the Maven build (what verify runs), Lombok usage, and anything that matters for adding POST /api/samples/{id}/aliquots that splits a sample into child samples. Report numbered findings with file paths, then risks. Change nothing."})],
)
AG = "c5e81d2a"
s.user("In /home/ilse/dev/lims-core (Spring Boot 3, Maven, Java 17, Flyway, PostgreSQL), survey ... Report numbered findings with file paths, then risks. Change nothing.", agent=AG)
sh("ls src/main/java/eu/vialab/lims/*/ src/main/resources/db/migration | head -50", "src/main/java/eu/vialab/lims/audit/:\nAuditEvent.java\nAuditService.java\n\nsrc/main/java/eu/vialab/lims/sample/:\nSample.java\nSampleController.java\nSampleRepository.java\nSampleService.java\nSampleStatus.java\n\nsrc/main/java/eu/vialab/lims/web/:\nProblemAdvice.java\n\nsrc/main/resources/db/migration:\nV1__init.sql\n...\nV13__audit_event_payload_jsonb.sql\nV14__sample_status_index.sql\n", agent=AG)
s.read(SAMPLE, agent=AG)
sh("sed -n 1,80p src/main/java/eu/vialab/lims/sample/SampleService.java; sed -n 1,60p src/main/java/eu/vialab/lims/web/ProblemAdvice.java", "package eu.vialab.lims.sample;\n...\n  @Transactional\n  public Sample receive(ReceiveRequest req) {\n    Sample s = new Sample();\n    s.setBarcode(barcodes.next());\n...\n  audit.record(\"SAMPLE_RECEIVED\", s.getId(), Map.of(\"volume_ul\", s.getVolumeUl()));\n...\n@RestControllerAdvice\npublic class ProblemAdvice {\n  @ExceptionHandler(SampleNotFoundException.class)\n  ProblemDetail notFound(SampleNotFoundException e) { ... 404 ... type = URI.create(\"https://lims.vialab.eu/problems/sample-not-found\") ...\n  @ExceptionHandler(MethodArgumentNotValidException.class) ... 400 ...\n", agent=AG)
sh("grep -rln 'lombok' src/main/java | wc -l; grep -rn 'barcodes.next\\|class BarcodeGenerator' src/main/java | head; cat config/checkstyle.xml | grep -o 'name=\"[A-Za-z]*\"' | sort -u | head -30", "11\nsrc/main/java/eu/vialab/lims/sample/SampleService.java:41:    s.setBarcode(barcodes.next());\nsrc/main/java/eu/vialab/lims/sample/BarcodeGenerator.java:12:public class BarcodeGenerator {\nname=\"AvoidStarImport\"\nname=\"FinalClass\"\nname=\"Indentation\"\nname=\"JavadocMethod\"\nname=\"LineLength\"\nname=\"MissingJavadocType\"\nname=\"NeedBraces\"\nname=\"UnusedImports\"\n", agent=AG)
sh("ls src/test/java/eu/vialab/lims/**/; sed -n 1,40p src/test/java/eu/vialab/lims/support/PostgresIT.java; grep -n 'surefire\\|failsafe\\|checkstyle' -A2 pom.xml | head -30", "src/test/java/eu/vialab/lims/sample/:\nSampleControllerIT.java\nSampleServiceTest.java\nsrc/test/java/eu/vialab/lims/support/:\nPostgresIT.java\n@Testcontainers\n@SpringBootTest\n@AutoConfigureMockMvc\npublic abstract class PostgresIT {\n  @Container @ServiceConnection\n  static PostgreSQLContainer<?> pg = new PostgreSQLContainer<>(\"postgres:16-alpine\");\n...\n", agent=AG)
sh("git log --oneline -5; git branch -a | head", "e41c7d9 sample status index (V14)\n9b2f0a1 audit payload jsonb\n...\n* feature/aliquots\n  develop\n  main\n  remotes/origin/develop\n  remotes/origin/feature/sample-comments\n", agent=AG)
REPORT = """Survey of lims-core (nothing changed).

Findings
1. sample/Sample.java: JPA entity, id IDENTITY, barcode unique, volume_ul BigDecimal numeric(10,1), status enum SampleStatus (RECEIVED, IN_STORAGE, CONSUMED, DISCARDED), received_at Instant, @Version long version (optimistic locking). Uses Lombok @Getter/@Setter.
2. No parent/child relation on samples yet; aliquots would need a parent_id column.
3. sample/SampleService.java: @Transactional methods; receive() takes barcodes from BarcodeGenerator.next() (sequence-backed, format LAB-000123) and writes an AuditEvent via AuditService.record(type, sampleId, payload).
4. audit/AuditEvent: payload jsonb since V13; event types are plain strings (SAMPLE_RECEIVED, SAMPLE_MOVED, SAMPLE_DISCARDED).
5. web/ProblemAdvice.java: @RestControllerAdvice returning RFC 7807 ProblemDetail with type URIs under https://lims.vialab.eu/problems/ (sample-not-found 404, validation 400). No handler for optimistic-lock failures: they surface as 500.
6. Flyway: V1..V14 in src/main/resources/db/migration, latest V14__sample_status_index.sql; names are V<n>__snake_case.sql, one concern per file, every file starts with a comment naming the ticket.
7. Lombok is used in 11 classes under src/main/java; lombok is a provided dependency in pom.xml.
8. Tests: unit tests *Test.java (surefire), integration tests *IT.java (failsafe) extending support/PostgresIT: Testcontainers postgres:16-alpine with @ServiceConnection, @SpringBootTest + MockMvc.
9. `mvn verify` runs surefire, failsafe and checkstyle (config/checkstyle.xml, failOnViolation, violationSeverity warning): JavadocMethod on public methods, MissingJavadocType, LineLength 120, NeedBraces, AvoidStarImport.
10. pom.xml: Spring Boot 3.3.5 parent, java.version 17, Testcontainers 1.20.3.
11. SampleControllerIT asserts full JSON bodies with jsonPath on every field, so added fields do not break it but renamed ones do.
12. Remote branch origin/feature/sample-comments exists and is not merged into develop yet.
13. sample/SampleController.java: GET /api/samples/{id} returns a SampleView record (id, barcode, volumeUl, status, receivedAt); no other sample endpoints besides receive and move.
14. support/Fixtures.java: receivedSample(volume) and barcodeOf(id) helpers; PostgresIT exposes protected `mvc` and `fixtures` to every IT.
15. application.yml: spring.jpa.hibernate.ddl-auto=validate and open-in-view=false, so every new entity field needs its column in a migration or the context fails to start.
16. BarcodeGenerator uses the sequence sample_barcode_seq (V3), zero-padded to 6 digits: LAB-000001 and up.
17. SampleService.discard() sets DISCARDED; nothing sets CONSUMED yet, although the enum has it.
18. application-local.yml (profile local) points to localhost:5432/lims_local, user lims.

Risks
- Two concurrent aliquot requests on one parent: without @Version handling the second gets a 500 instead of a clean conflict.
- BigDecimal division (parent volume / n) throws ArithmeticException without a scale and RoundingMode.
- A new migration number can collide with an open branch (feature/sample-comments may also add a V15).
- Child barcodes from the same generator as parents are indistinguishable on the rack; consider a derived format.
- Checkstyle's Javadoc rules apply to every public method of new classes.
"""
s.assistant(REPORT, agent=AG)
s.result(tid, [{"type": "text", "text": REPORT}], {"status": "completed", "prompt": "In /home/ilse/dev/lims-core ...", "agentId": AG, "content": [{"type": "text", "text": REPORT}], "totalDurationMs": 48211, "totalTokens": 19874, "totalToolUseCount": 7})
s.reads([SAMPLE, POM])
sh("java -version 2>&1 | head -1; mvn -v | head -1; docker info --format '{{.ServerVersion}}'", "openjdk version \"17.0.13\" 2024-10-15\nApache Maven 3.9.9 (8e8579a9e76f7d015ee5ec7bfcdc97d260186937)\n27.3.1", desc="Toolchain versions")
sh("mvn -q verify 2>&1 | tail -15", "[INFO] Tests run: 38, Failures: 0, Errors: 0, Skipped: 0\n[INFO] Tests run: 21, Failures: 0, Errors: 0, Skipped: 0\n[INFO] You have 0 Checkstyle violations.\n[INFO] BUILD SUCCESS\n[INFO] Total time:  01:42 min\n", desc="Baseline build")
s.assistant(
    "Baseline: `mvn verify` green (38 unit tests, 21 ITs, 0 checkstyle violations), JDK 17.0.13, Maven 3.9.9.\n\n"
    "Proposal:\n"
    "1. Migration `V15__aliquots.sql`: `sample.parent_id bigint REFERENCES sample(id)` + index, nothing else changed.\n"
    "2. `AliquotService.split(parentId, count, volumeUl)` in one transaction: checks status RECEIVED or IN_STORAGE and `count × volume ≤ parent volume`, creates `count` child samples (status RECEIVED, parent_id set), subtracts their volume from the parent, writes one audit event `SAMPLE_ALIQUOTED` with the child ids.\n"
    "3. `POST /api/samples/{id}/aliquots` body `{\"count\": 4, \"volumeUl\": \"250.0\"}` → 201 with the list of children (new response type, existing ones untouched).\n"
    "4. Optimistic-lock conflicts mapped to **409** ProblemDetail in ProblemAdvice (today they would be 500).\n"
    "5. Child barcodes: derived from the parent, e.g. `LAB-000123-01`, so a technician sees the origin on the rack.\n"
    "6. New classes without Lombok, Java 17 only, BigDecimal with scale 1.\n\n"
    "The sub-agent also saw `origin/feature/sample-comments` not yet merged; if it adds a V15 we would collide."
)

# ===================================================================== turn 2
s.user(
    "That's a good plan and I like the 409, we had robots retrying on 500s for minutes last spring. About the volume: the robots send the volume per aliquot, but the technicians asked whether they can also say 'split everything into N', so please allow the body to have either volumeUl or nothing, and when there is no volume you divide the parent's volume by N, "
    "and here is the thing, decision: whatever cannot be divided evenly stays in the parent, we never round up a child and we never create volume out of nothing, so 100.0 into 3 gives three times 33.3 and the parent keeps 0.1. The barcode idea LAB-000123-01 is nice, go with that. "
    "Oh and Tomasz just merged his sample-comments branch into develop, so please rebase on develop first before you write the migration, and the maximum count is 96 because that is one plate."
)
sh("git fetch -q && git rebase origin/develop && git log --oneline -3 && ls src/main/resources/db/migration | tail -3", "Successfully rebased and updated refs/heads/feature/aliquots.\n7c0d5e3 sample comments: entity, endpoint, V15 migration\ne41c7d9 sample status index (V14)\n9b2f0a1 audit payload jsonb\nV13__audit_event_payload_jsonb.sql\nV14__sample_status_index.sql\nV15__sample_comments.sql\n", desc="Rebase on develop")
s.assistant("Tomasz's branch brought `V15__sample_comments.sql`, so the aliquot migration becomes **V16**.")
s.write(MIG16, """-- LIMS-482 aliquoting: child samples point to their parent
ALTER TABLE sample ADD COLUMN parent_id bigint REFERENCES sample (id);
CREATE INDEX sample_parent_id_idx ON sample (parent_id) WHERE parent_id IS NOT NULL;
""")
s.edit(SAMPLE, """  @Version
  private long version;
}
""", """  @Column(name = "parent_id")
  private Long parentId;

  @Version
  private long version;
}
""")
s.write(BARC, """package eu.vialab.lims.sample;

/** Barcodes of aliquots, derived from the parent's barcode. */
public final class Barcodes {

  private Barcodes() {
  }

  /**
   * Barcode of the n-th aliquot (1-based) of a parent, e.g. LAB-000123-01.
   *
   * @param parent the parent's barcode
   * @param n the aliquot number, 1..96
   * @return the child barcode
   */
  public static String child(String parent, int n) {
    return String.format("%s-%02d", parent, n);
  }
}
""")
s.write(AREQ, """package eu.vialab.lims.sample;

import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Digits;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import java.math.BigDecimal;

/**
 * Body of POST /api/samples/{id}/aliquots.
 *
 * @param count number of aliquots, 1..96 (one plate)
 * @param volumeUl volume per aliquot in microlitres, one decimal; null means split everything
 */
public record AliquotRequest(
    @Min(1) @Max(96) int count,
    @DecimalMin(value = "0.1") @Digits(integer = 9, fraction = 1) BigDecimal volumeUl) {
}
""")
s.write(ASVC, """package eu.vialab.lims.sample;

import eu.vialab.lims.audit.AuditService;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** Splits a sample into aliquots; the remainder always stays in the parent. */
@Service
public class AliquotService {

  private final SampleRepository samples;
  private final AuditService audit;

  public AliquotService(SampleRepository samples, AuditService audit) {
    this.samples = samples;
    this.audit = audit;
  }

  /**
   * Creates {@code count} child samples of {@code volumeUl} each (or parent volume / count).
   *
   * @param parentId the parent sample
   * @param req count and optional volume per aliquot
   * @return the children, in barcode order
   */
  @Transactional
  public List<Sample> split(long parentId, AliquotRequest req) {
    Sample parent = samples.findById(parentId).orElseThrow(() -> new SampleNotFoundException(parentId));
    String problem = switch (parent.getStatus()) {
      case SampleStatus s when s == SampleStatus.RECEIVED || s == SampleStatus.IN_STORAGE -> null;
      default -> "sample " + parent.getBarcode() + " is " + parent.getStatus();
    };
    if (problem != null) {
      throw new AliquotNotPossibleException(problem);
    }
    BigDecimal each = req.volumeUl() != null
        ? req.volumeUl()
        : parent.getVolumeUl().divide(BigDecimal.valueOf(req.count()));
    BigDecimal total = each.multiply(BigDecimal.valueOf(req.count()));
    if (total.compareTo(parent.getVolumeUl()) > 0) {
      throw new AliquotNotPossibleException(
          "needs " + total + " ul, sample " + parent.getBarcode() + " has " + parent.getVolumeUl() + " ul");
    }
    List<Sample> children = new ArrayList<>();
    for (int n = 1; n <= req.count(); n++) {
      Sample child = new Sample();
      child.setBarcode(Barcodes.child(parent.getBarcode(), n));
      child.setVolumeUl(each);
      child.setStatus(SampleStatus.RECEIVED);
      child.setReceivedAt(parent.getReceivedAt());
      child.setParentId(parent.getId());
      children.add(samples.save(child));
    }
    parent.setVolumeUl(parent.getVolumeUl().subtract(total));
    audit.record("SAMPLE_ALIQUOTED", parent.getId(),
        Map.of("children", children.stream().map(Sample::getId).toList(), "volume_ul_each", each));
    return children;
  }
}
""")
sh("mvn -q compile 2>&1 | tail -12", """[ERROR] COMPILATION ERROR : 
[ERROR] /home/ilse/dev/lims-core/src/main/java/eu/vialab/lims/sample/AliquotService.java:[36,12] patterns in switch statements are not supported in -source 17
  (use -source 21 or higher to enable patterns in switch statements)
[ERROR] /home/ilse/dev/lims-core/src/main/java/eu/vialab/lims/sample/AliquotService.java:[36,35] guarded patterns are not supported in -source 17
[ERROR] /home/ilse/dev/lims-core/src/main/java/eu/vialab/lims/sample/AliquotService.java:[39,9] cannot find symbol
  symbol:   class AliquotNotPossibleException
  location: class eu.vialab.lims.sample.AliquotService
[INFO] 3 errors 
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-compiler-plugin:3.13.0:compile (default-compile) on project lims-core: Compilation failure""", code=1, desc="Compile")
s.assistant("Exactly what you ruled out: a guarded pattern in `switch` is Java 21; with `<java.version>17</java.version>` javac refuses it. Replacing it with a plain condition, and adding the missing `AliquotNotPossibleException`.")
s.edit(ASVC, """    String problem = switch (parent.getStatus()) {
      case SampleStatus s when s == SampleStatus.RECEIVED || s == SampleStatus.IN_STORAGE -> null;
      default -> "sample " + parent.getBarcode() + " is " + parent.getStatus();
    };
    if (problem != null) {
      throw new AliquotNotPossibleException(problem);
    }""", """    SampleStatus st = parent.getStatus();
    if (st != SampleStatus.RECEIVED && st != SampleStatus.IN_STORAGE) {
      throw new AliquotNotPossibleException("sample " + parent.getBarcode() + " is " + st);
    }""")
s.write(f"{PKG}/sample/AliquotNotPossibleException.java", """package eu.vialab.lims.sample;

/** The sample cannot be aliquoted as requested (status or volume); mapped to 422. */
public class AliquotNotPossibleException extends RuntimeException {

  /**
   * Creates the exception.
   *
   * @param message why not
   */
  public AliquotNotPossibleException(String message) {
    super(message);
  }
}
""")
s.write(TEST, """package eu.vialab.lims.sample;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import eu.vialab.lims.support.PostgresIT;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;

class AliquotControllerIT extends PostgresIT {

  @Test
  void splitsWithGivenVolume() throws Exception {
    long id = fixtures.receivedSample("1000.0");
    mvc.perform(post("/api/samples/{id}/aliquots", id).contentType(MediaType.APPLICATION_JSON)
            .content("{\\"count\\": 4, \\"volumeUl\\": \\"250.0\\"}"))
        .andExpect(status().isCreated())
        .andExpect(jsonPath("$.length()").value(4))
        .andExpect(jsonPath("$[0].barcode").value(fixtures.barcodeOf(id) + "-01"))
        .andExpect(jsonPath("$[3].volumeUl").value(250.0));
  }

  @Test
  void splitEverythingLeavesRemainderInParent() throws Exception {
    long id = fixtures.receivedSample("100.0");
    mvc.perform(post("/api/samples/{id}/aliquots", id).contentType(MediaType.APPLICATION_JSON)
            .content("{\\"count\\": 3}"))
        .andExpect(status().isCreated())
        .andExpect(jsonPath("$[2].volumeUl").value(33.3));
    mvc.perform(org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get("/api/samples/{id}", id))
        .andExpect(jsonPath("$.volumeUl").value(0.1));
  }

  @Test
  void tooMuchVolumeIs422() throws Exception {
    long id = fixtures.receivedSample("100.0");
    mvc.perform(post("/api/samples/{id}/aliquots", id).contentType(MediaType.APPLICATION_JSON)
            .content("{\\"count\\": 2, \\"volumeUl\\": \\"60.0\\"}"))
        .andExpect(status().isUnprocessableEntity());
  }

  @Test
  void moreThan96Is400() throws Exception {
    long id = fixtures.receivedSample("1000.0");
    mvc.perform(post("/api/samples/{id}/aliquots", id).contentType(MediaType.APPLICATION_JSON)
            .content("{\\"count\\": 97, \\"volumeUl\\": \\"1.0\\"}"))
        .andExpect(status().isBadRequest());
  }
}
""")
s.files[ADV] = """package eu.vialab.lims.web;

import eu.vialab.lims.sample.SampleNotFoundException;
import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

/** Maps exceptions to RFC 7807 problem details. */
@RestControllerAdvice
public class ProblemAdvice {

  private static final String BASE = "https://lims.vialab.eu/problems/";

  @ExceptionHandler(SampleNotFoundException.class)
  ProblemDetail notFound(SampleNotFoundException e) {
    ProblemDetail pd = ProblemDetail.forStatusAndDetail(HttpStatus.NOT_FOUND, e.getMessage());
    pd.setType(URI.create(BASE + "sample-not-found"));
    return pd;
  }
}
"""
s.read(ADV)
s.edit(ADV, """import eu.vialab.lims.sample.SampleNotFoundException;
import java.net.URI;""", """import eu.vialab.lims.sample.AliquotNotPossibleException;
import eu.vialab.lims.sample.SampleNotFoundException;
import jakarta.persistence.OptimisticLockException;
import java.net.URI;""")
s.edit(ADV, """    pd.setType(URI.create(BASE + "sample-not-found"));
    return pd;
  }
}
""", """    pd.setType(URI.create(BASE + "sample-not-found"));
    return pd;
  }

  @ExceptionHandler(AliquotNotPossibleException.class)
  ProblemDetail aliquotNotPossible(AliquotNotPossibleException e) {
    ProblemDetail pd = ProblemDetail.forStatusAndDetail(HttpStatus.UNPROCESSABLE_ENTITY, e.getMessage());
    pd.setType(URI.create(BASE + "aliquot-not-possible"));
    return pd;
  }

  @ExceptionHandler(OptimisticLockException.class)
  ProblemDetail conflict(OptimisticLockException e) {
    ProblemDetail pd = ProblemDetail.forStatusAndDetail(HttpStatus.CONFLICT,
        "the sample was changed by another request, retry with fresh data");
    pd.setType(URI.create(BASE + "concurrent-change"));
    return pd;
  }
}
""")
s.write(ACTRL, """package eu.vialab.lims.sample;

import jakarta.validation.Valid;
import java.math.BigDecimal;
import java.util.List;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

/** POST /api/samples/{id}/aliquots (new in 2.14; existing sample responses unchanged). */
@RestController
public class AliquotController {

  private final AliquotService aliquots;

  public AliquotController(AliquotService aliquots) {
    this.aliquots = aliquots;
  }

  /** One created aliquot. */
  public record AliquotView(long id, String barcode, BigDecimal volumeUl, long parentId) {
  }

  @PostMapping("/api/samples/{id}/aliquots")
  @ResponseStatus(HttpStatus.CREATED)
  public List<AliquotView> split(@PathVariable long id, @Valid @RequestBody AliquotRequest req) {
    return aliquots.split(id, req).stream()
        .map(c -> new AliquotView(c.getId(), c.getBarcode(), c.getVolumeUl(), c.getParentId()))
        .toList();
  }
}
""")
s.write(f"{TEST[:-len('AliquotControllerIT.java')]}AliquotConcurrencyIT.java", """package eu.vialab.lims.sample;

import static org.assertj.core.api.Assertions.assertThat;

import eu.vialab.lims.support.PostgresIT;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;

class AliquotConcurrencyIT extends PostgresIT {

  @Test
  void secondConcurrentSplitGets409() throws Exception {
    long id = fixtures.receivedSample("1000.0");
    CountDownLatch start = new CountDownLatch(1);
    List<CompletableFuture<Integer>> calls = List.of(call(id, start), call(id, start));
    start.countDown();
    List<Integer> codes = calls.stream().map(CompletableFuture::join).sorted().toList();
    assertThat(codes).containsExactly(201, 409);
  }

  private CompletableFuture<Integer> call(long id, CountDownLatch start) {
    return CompletableFuture.supplyAsync(() -> {
      try {
        start.await();
        return mvc.perform(MockMvcRequestBuilders.post("/api/samples/{id}/aliquots", id)
                .contentType(MediaType.APPLICATION_JSON).content("{\\"count\\": 2, \\"volumeUl\\": \\"100.0\\"}"))
            .andReturn().getResponse().getStatus();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    });
  }
}
""")
sh("mvn -q verify 2>&1 | grep -v '^\\[INFO\\] Download' | tail -40", """[INFO] Tests run: 38, Failures: 0, Errors: 0, Skipped: 0
[INFO] Running eu.vialab.lims.sample.AliquotConcurrencyIT
[ERROR] Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 1.182 s <<< FAILURE! -- in eu.vialab.lims.sample.AliquotConcurrencyIT
[ERROR] eu.vialab.lims.sample.AliquotConcurrencyIT.secondConcurrentSplitGets409 -- Time elapsed: 1.141 s <<< FAILURE!
java.lang.AssertionError: 
Expecting actual:
  [201, 500]
to contain exactly (and in same order):
  [201, 409]
	at eu.vialab.lims.sample.AliquotConcurrencyIT.secondConcurrentSplitGets409(AliquotConcurrencyIT.java:23)
[INFO] Running eu.vialab.lims.sample.AliquotControllerIT
[ERROR] Tests run: 4, Failures: 0, Errors: 1, Skipped: 0, Time elapsed: 0.904 s <<< FAILURE! -- in eu.vialab.lims.sample.AliquotControllerIT
[ERROR] eu.vialab.lims.sample.AliquotControllerIT.splitEverythingLeavesRemainderInParent -- Time elapsed: 0.097 s <<< ERROR!
jakarta.servlet.ServletException: Request processing failed: java.lang.ArithmeticException: Non-terminating decimal expansion; no exact representable decimal result.
	at org.springframework.web.servlet.FrameworkServlet.processRequest(FrameworkServlet.java:1022)
	at org.springframework.test.web.servlet.MockMvc.perform(MockMvc.java:201)
	at eu.vialab.lims.sample.AliquotControllerIT.splitEverythingLeavesRemainderInParent(AliquotControllerIT.java:29)
Caused by: java.lang.ArithmeticException: Non-terminating decimal expansion; no exact representable decimal result.
	at java.base/java.math.BigDecimal.divide(BigDecimal.java:1780)
	at eu.vialab.lims.sample.AliquotService.split(AliquotService.java:42)
	... 44 more
[INFO] Running eu.vialab.lims.sample.SampleControllerIT
[INFO] Tests run: 14, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 2.311 s -- in eu.vialab.lims.sample.SampleControllerIT
[INFO] 
[INFO] Results:
[INFO] 
[ERROR] Failures: 
[ERROR]   AliquotConcurrencyIT.secondConcurrentSplitGets409:23 
Expecting actual:
  [201, 500]
to contain exactly (and in same order):
  [201, 409]
[ERROR] Errors: 
[ERROR]   AliquotControllerIT.splitEverythingLeavesRemainderInParent:29 » Servlet Request processing failed: java.lang.ArithmeticException: Non-terminating decimal expansion; no exact representable decimal result.
[ERROR] 
[ERROR] Tests run: 26, Failures: 1, Errors: 1, Skipped: 0
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-failsafe-plugin:3.2.5:verify (default) on project lims-core: There are test failures.""", code=1, desc="Full build")
sh("grep -n 'OptimisticLock\\|500' target/failsafe-reports/eu.vialab.lims.sample.AliquotConcurrencyIT-output.txt | head -5", """212:2026-12-01T09:31:44.806Z ERROR 48211 --- [ForkJoinPool.commonPool-worker-2] o.a.c.c.C.[.[.[/].[dispatcherServlet]    : Servlet.service() for servlet [dispatcherServlet] in context with path [] threw exception [Request processing failed: org.springframework.orm.ObjectOptimisticLockingFailureException: Row was updated or deleted by another transaction (or unsaved-value mapping was incorrect) : [eu.vialab.lims.sample.Sample#1]] with root cause
213:org.hibernate.StaleObjectStateException: Row was updated or deleted by another transaction (or unsaved-value mapping was incorrect) : [eu.vialab.lims.sample.Sample#1]""", desc="Why 500")
s.assistant(
    "Two real failures:\n"
    "1. `ArithmeticException: Non-terminating decimal expansion` at AliquotService.java:42: `100.0 / 3` without a scale. Your rule says the remainder stays in the parent, so the division must be `divide(n, 1, RoundingMode.DOWN)`: 33.3 each, parent keeps 100.0 − 99.9 = 0.1.\n"
    "2. The concurrent split gave **500**, not 409: Spring translates Hibernate's `StaleObjectStateException` into `org.springframework.orm.ObjectOptimisticLockingFailureException`; my handler caught `jakarta.persistence.OptimisticLockException`, which never reaches the controller advice. Handling Spring's `ObjectOptimisticLockingFailureException` instead."
)
s.edit(ASVC, """        : parent.getVolumeUl().divide(BigDecimal.valueOf(req.count()));""", """        // remainder stays in the parent: round every child DOWN to 0.1 ul
        : parent.getVolumeUl().divide(BigDecimal.valueOf(req.count()), 1, RoundingMode.DOWN);""")
s.edit(ADV, """import jakarta.persistence.OptimisticLockException;
import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;""", """import java.net.URI;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.orm.ObjectOptimisticLockingFailureException;""")
s.edit(ADV, """  @ExceptionHandler(OptimisticLockException.class)
  ProblemDetail conflict(OptimisticLockException e) {""", """  @ExceptionHandler(ObjectOptimisticLockingFailureException.class)
  ProblemDetail conflict(ObjectOptimisticLockingFailureException e) {""")
sh("mvn -q verify 2>&1 | grep -E 'Tests run:|WARN|ERROR|BUILD' | tail -20", """[INFO] Tests run: 38, Failures: 0, Errors: 0, Skipped: 0
[INFO] Tests run: 1, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 1.214 s -- in eu.vialab.lims.sample.AliquotConcurrencyIT
[INFO] Tests run: 4, Failures: 0, Errors: 0, Skipped: 0, Time elapsed: 0.917 s -- in eu.vialab.lims.sample.AliquotControllerIT
[INFO] Tests run: 26, Failures: 0, Errors: 0, Skipped: 0
[WARN] src/main/java/eu/vialab/lims/sample/AliquotController.java:[19,3] (javadoc) MissingJavadocMethod: Missing a Javadoc comment.
[WARN] src/main/java/eu/vialab/lims/sample/AliquotController.java:[28,3] (javadoc) MissingJavadocMethod: Missing a Javadoc comment.
[WARN] src/main/java/eu/vialab/lims/sample/AliquotService.java:[19,3] (javadoc) MissingJavadocMethod: Missing a Javadoc comment.
[ERROR] Failed to execute goal org.apache.maven.plugins:maven-checkstyle-plugin:3.5.0:check (default) on project lims-core: You have 3 Checkstyle violations. -> [Help 1]""", code=1, desc="Full build")
s.edit(ACTRL, """  public AliquotController(AliquotService aliquots) {""", """  /**
   * Creates the controller.
   *
   * @param aliquots the service
   */
  public AliquotController(AliquotService aliquots) {""")
s.edit(ACTRL, """  @PostMapping("/api/samples/{id}/aliquots")""", """  /**
   * Splits sample {@code id} into aliquots.
   *
   * @param id the parent sample
   * @param req count (1..96) and optional volume per aliquot
   * @return the created aliquots, 201
   */
  @PostMapping("/api/samples/{id}/aliquots")""")
s.edit(ASVC, """  public AliquotService(SampleRepository samples, AuditService audit) {""", """  /**
   * Creates the service.
   *
   * @param samples sample repository
   * @param audit audit trail
   */
  public AliquotService(SampleRepository samples, AuditService audit) {""")
sh("mvn -q verify 2>&1 | grep -E 'Tests run: [0-9]+, F.*$|Checkstyle|BUILD|Total time' | tail -5", """[INFO] Tests run: 38, Failures: 0, Errors: 0, Skipped: 0
[INFO] Tests run: 26, Failures: 0, Errors: 0, Skipped: 0
[INFO] You have 0 Checkstyle violations.
[INFO] BUILD SUCCESS
[INFO] Total time:  01:58 min""", desc="Full build")
sh("(mvn -q spring-boot:run -Dspring-boot.run.profiles=local > /tmp/lims-run.log 2>&1 &) ; sleep 25; curl -s -X POST localhost:8080/api/samples/5/aliquots -H 'content-type: application/json' -d '{\"count\": 3}' | jq -c .", """[{"id":1042,"barcode":"LAB-000005-01","volumeUl":33.3,"parentId":5},{"id":1043,"barcode":"LAB-000005-02","volumeUl":33.3,"parentId":5},{"id":1044,"barcode":"LAB-000005-03","volumeUl":33.3,"parentId":5}]""", desc="Manual check against local profile")
sh("curl -s localhost:8080/api/samples/5 | jq -c '{barcode, volumeUl, status}'; curl -s -X POST localhost:8080/api/samples/5/aliquots -H 'content-type: application/json' -d '{\"count\": 2, \"volumeUl\": \"1.0\"}' | jq -c .", """{"barcode":"LAB-000005","volumeUl":0.1,"status":"RECEIVED"}
{"type":"https://lims.vialab.eu/problems/aliquot-not-possible","title":"Unprocessable Entity","status":422,"detail":"needs 2.0 ul, sample LAB-000005 has 0.1 ul","instance":"/api/samples/5/aliquots"}""", desc="Parent after split, and over-volume request")
sh("psql -h localhost -U lims -d lims_local -c \"select type, sample_id, payload from audit_event order by id desc limit 1\"", """       type       | sample_id |                        payload
------------------+-----------+-------------------------------------------------------
 SAMPLE_ALIQUOTED |         5 | {"children": [1042, 1043, 1044], "volume_ul_each": 33.3}
(1 row)""", desc="Audit event")
sh("pkill -f 'spring-boot:run' ; sleep 2; pgrep -f lims-core || echo stopped", "stopped", desc="Stop the local app")
s.assistant(
    "Aliquoting works end to end:\n"
    "- `V16__aliquots.sql` (V15 is Tomasz's sample_comments): `sample.parent_id` + partial index.\n"
    "- `POST /api/samples/{id}/aliquots` → 201 with `[{id, barcode, volumeUl, parentId}]`; count 1..96 (97 → 400), optional `volumeUl`; without it the parent volume is divided with `RoundingMode.DOWN` to 0.1 µl and the remainder stays in the parent (local check: 100.0 → 3 × 33.3, parent keeps 0.1).\n"
    "- Too little volume or wrong status → **422** `aliquot-not-possible`; concurrent change → **409** `concurrent-change` (Spring's `ObjectOptimisticLockingFailureException`, not the JPA one).\n"
    "- Barcodes `LAB-000005-01..03`; audit event `SAMPLE_ALIQUOTED` with the child ids and `volume_ul_each`.\n"
    "- `mvn verify`: 38 unit tests, 26 ITs, 0 checkstyle violations (needed Javadoc on the public constructor/method of the two new classes). New classes are Lombok-free, Java 17."
)

# ===================================================================== turn 3
s.user(
    "Lovely, that is already most of it. I showed the barcodes to Marleen from the lab this morning and she was not happy with LAB-000005-01, because the rack scanners misread the two-digit suffix now and then and with parent and child on the same rack a misread goes unnoticed, so she wants a check digit at the end, so please change it to LAB-000005-01-C where C is a Luhn check digit computed over all the digits of the barcode (000005 and 01 together), "
    "which also means the old format never goes out to a robot, good that nothing is merged yet. The label printing (PDF labels for the aliquot tubes) we also need but not in this branch, later, Jonas is redoing the label templates first. "
    "And please leave Lombok in Sample.java alone in this PR, I know we are removing it but that is a separate change and I don't want the diff to be noisy."
)
s.write(BTEST, """package eu.vialab.lims.sample;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class BarcodesTest {

  @Test
  void childHasLuhnCheckDigitOverAllDigits() {
    // digits 00000501 -> Luhn check digit 7
    assertThat(Barcodes.child("LAB-000005", 1)).isEqualTo("LAB-000005-01-7");
    // digits 00012396 -> Luhn check digit 8
    assertThat(Barcodes.child("LAB-000123", 96)).isEqualTo("LAB-000123-96-8");
  }

  @Test
  void checkDigitDetectsSingleDigitErrors() {
    assertThat(Barcodes.isValid("LAB-000005-01-7")).isTrue();
    assertThat(Barcodes.isValid("LAB-000005-07-7")).isFalse();
  }
}
""")
s.write(BARC, """package eu.vialab.lims.sample;

/** Barcodes of aliquots: parent barcode, two-digit number, Luhn check digit over all digits. */
public final class Barcodes {

  private Barcodes() {
  }

  /**
   * Barcode of the n-th aliquot (1-based) of a parent, e.g. LAB-000005-01-7.
   *
   * @param parent the parent's barcode
   * @param n the aliquot number, 1..96
   * @return the child barcode
   */
  public static String child(String parent, int n) {
    String base = String.format("%s-%02d", parent, n);
    return base + "-" + luhn(base);
  }

  /**
   * Whether the last character is the right check digit for the rest.
   *
   * @param barcode a child barcode
   * @return true if the check digit matches
   */
  public static boolean isValid(String barcode) {
    int dash = barcode.lastIndexOf('-');
    return dash > 0 && barcode.substring(dash + 1).equals(String.valueOf(luhn(barcode.substring(0, dash))));
  }

  static int luhn(String s) {
    int sum = 0;
    boolean dbl = true;
    for (int i = s.length() - 1; i >= 0; i--) {
      int d = Character.getNumericValue(s.charAt(i));
      if (d < 0) {
        continue;
      }
      if (dbl) {
        d *= 2;
        if (d > 9) {
          d -= 9;
        }
      }
      sum += d;
      dbl = !dbl;
    }
    return (10 - sum % 10) % 10;
  }
}
""")
sh("mvn -q test -Dtest=BarcodesTest 2>&1 | grep -v Download | tail -20", """[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.041 s <<< FAILURE! -- in eu.vialab.lims.sample.BarcodesTest
[ERROR] eu.vialab.lims.sample.BarcodesTest.childHasLuhnCheckDigitOverAllDigits -- Time elapsed: 0.031 s <<< FAILURE!
org.opentest4j.AssertionFailedError: 
expected: "LAB-000005-01-7"
 but was: "LAB-000005-01-1"
	at eu.vialab.lims.sample.BarcodesTest.childHasLuhnCheckDigitOverAllDigits(BarcodesTest.java:12)
[INFO] 
[INFO] Results:
[INFO] 
[ERROR] Failures: 
[ERROR]   BarcodesTest.childHasLuhnCheckDigitOverAllDigits:12 
expected: "LAB-000005-01-7"
 but was: "LAB-000005-01-1"
[ERROR] Tests run: 2, Failures: 1, Errors: 0, Skipped: 0""", code=1, desc="Barcode unit test")
s.assistant("`Character.getNumericValue` is not a digit test: for letters it returns 10..35 ('L' = 21, 'A' = 10, 'B' = 11), only '-' gives −1, so the letters of `LAB` went into the sum. Only characters '0'..'9' may count.")
s.edit(BARC, """      int d = Character.getNumericValue(s.charAt(i));
      if (d < 0) {
        continue;
      }""", """      char c = s.charAt(i);
      if (c < '0' || c > '9') {
        continue; // letters and dashes are not part of the check
      }
      int d = c - '0';""")
sh("mvn -q test -Dtest=BarcodesTest 2>&1 | grep -E 'Tests run|FAIL' | tail -3", "[INFO] Tests run: 2, Failures: 0, Errors: 0, Skipped: 0", desc="Barcode unit test")
s.edit(TEST, """        .andExpect(jsonPath("$[0].barcode").value(fixtures.barcodeOf(id) + "-01"))""", """        .andExpect(jsonPath("$[0].barcode").value(org.hamcrest.Matchers.matchesPattern(fixtures.barcodeOf(id) + "-01-\\\\d")))""")
sh("mvn -q verify 2>&1 | grep -E 'Tests run: [0-9]+, F.*$|Checkstyle|BUILD|Total time' | tail -5", """[INFO] Tests run: 40, Failures: 0, Errors: 0, Skipped: 0
[INFO] Tests run: 26, Failures: 0, Errors: 0, Skipped: 0
[INFO] You have 0 Checkstyle violations.
[INFO] BUILD SUCCESS
[INFO] Total time:  02:01 min""", desc="Full build")
sh("git diff --stat origin/develop -- src/main/java/eu/vialab/lims/sample/Sample.java", " src/main/java/eu/vialab/lims/sample/Sample.java | 3 +++\n 1 file changed, 3 insertions(+)", desc="Sample.java diff size")
s.assistant(
    "Barcodes are now `LAB-000005-01-7`: parent, two-digit number, Luhn check digit over the digits only (`00000501` → 7; `LAB-000123-96` → 8). `Barcodes.isValid` checks a scanned code, so the rack software can reject a misread. "
    "The first implementation counted the letters of `LAB` (Character.getNumericValue gives 'L' = 21); fixed to '0'..'9' only. `mvn verify`: 40 unit tests, 26 ITs, 0 checkstyle violations. Sample.java only gets the `parentId` field (+3 lines), Lombok untouched. PDF labels not started."
)

# ===================================================================== turn 4
s.user("Perfect, then please add a line to the CHANGELOG under 2.14.0 for the robots team (they read it) saying the new endpoint and the barcode format with the check digit, and commit it on the branch, don't push, I'll open the merge request after lunch and ping Tomasz since the migration number depends on his V15.")
s.files["CHANGELOG.md"] = "# Changelog\n\n## 2.14.0 (unreleased)\n\n- Sample comments: `GET/POST /api/samples/{id}/comments` (Tomasz).\n\n## 2.13.2\n\n- Status index on sample (V14).\n"
s.read("CHANGELOG.md")
s.edit("CHANGELOG.md", "- Sample comments: `GET/POST /api/samples/{id}/comments` (Tomasz).\n", "- Sample comments: `GET/POST /api/samples/{id}/comments` (Tomasz).\n- Aliquoting: `POST /api/samples/{id}/aliquots` with `{\"count\": 1..96, \"volumeUl\": optional}` returns 201 and the child samples; without `volumeUl` the parent is split evenly (rounded down to 0.1 µl, remainder stays in the parent). 422 when volume or status do not allow it, 409 on a concurrent change (retry with fresh data). Aliquot barcodes are `<parent>-NN-C` with a Luhn check digit C over all digits, e.g. `LAB-000005-01-7`. Migration V16.\n")
sh("git add -A && git status --short && git commit -qm 'Aliquoting: POST /api/samples/{id}/aliquots, parent_id (V16), Luhn check digit barcodes, 409/422 problem details' && git log --oneline -2", """M  CHANGELOG.md
A  src/main/java/eu/vialab/lims/sample/AliquotController.java
A  src/main/java/eu/vialab/lims/sample/AliquotNotPossibleException.java
A  src/main/java/eu/vialab/lims/sample/AliquotRequest.java
A  src/main/java/eu/vialab/lims/sample/AliquotService.java
A  src/main/java/eu/vialab/lims/sample/Barcodes.java
M  src/main/java/eu/vialab/lims/sample/Sample.java
M  src/main/java/eu/vialab/lims/web/ProblemAdvice.java
A  src/main/resources/db/migration/V16__aliquots.sql
A  src/test/java/eu/vialab/lims/sample/AliquotConcurrencyIT.java
A  src/test/java/eu/vialab/lims/sample/AliquotControllerIT.java
A  src/test/java/eu/vialab/lims/sample/BarcodesTest.java
b9e4a17 Aliquoting: POST /api/samples/{id}/aliquots, parent_id (V16), Luhn check digit barcodes, 409/422 problem details
7c0d5e3 sample comments: entity, endpoint, V15 migration""", desc="Commit")
s.assistant(
    "Committed **b9e4a17** on `feature/aliquots` (rebased on develop, not pushed). CHANGELOG 2.14.0 has the endpoint, the 409/422 behaviour and the `<parent>-NN-C` barcode format for the robots team.\n\n"
    "Open: PDF labels for aliquot tubes (later, after Jonas's templates); removing Lombok from Sample.java (separate PR). For the MR: V16 depends on Tomasz's V15__sample_comments.sql already being on develop."
)
s.save(HERE / "session.jsonl")

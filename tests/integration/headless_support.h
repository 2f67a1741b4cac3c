#pragma once

// Shared by the integration tests that drive the real `mirrordesk` executable
// against the real brokers (tst_headless_run, tst_resume, tst_instances):
//  - profiles written the way a user writes them;
//  - `mirrordesk run` as a child process whose progress lines ("[  12] running
//    copied 1234 (321/s, 3.1 KiB/s) lag 56 ... partitions 3") are parsed as
//    they arrive, each stamped with the test's own clock;
//  - Apache Kafka's own tools (from the jars tests/kafka/harness.sh fetched)
//    as the independent writer and reader: VerifiableProducer writes unique
//    sequence values, GetOffsetShell counts, ConsoleConsumer reads back. A bug
//    shared by MirrorDesk's writer and reader cannot hide behind them.

#include "KafkaTestEnv.h"
#include "KafkaTestUtil.h"
#include "ProcessTestUtil.h"
#include "duplicate_bound.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryFile>
#include <QtTest/QtTest>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <functional>
#include <memory>
#include <optional>

namespace md::test {

// ------------------------------------------------------------------ profiles

// A JSON string literal's content for `s` (backslashes and quotes escaped).
inline QString jsonEscaped(const QString &s)
{
    QString out = s;
    out.replace(QLatin1String("\\"), QLatin1String("\\\\")).replace(QLatin1String("\""), QLatin1String("\\\""));
    return out;
}

struct ProfileSpec {
    QString name;                                   // the job name (its default group id derives from it)
    QString topic;                                  // the one source topic, matched exactly
    QString start = QStringLiteral("\"earliest\""); // the JSON value of "start"
    qint64 throttleBytesPerSecond = 0;
    QMap<QString, QString> consumerProperties; // source.consumerProperties
    QString extra;                             // more top-level keys, JSON, starting with ","
    QString naming = QStringLiteral("{\"policy\": \"prefix\", \"separator\": \".\"}"); // the JSON value of "naming"
};

// Writes `spec` as dir/fileName (target naming by default: prefix "src."), returns the path.
inline QString writeProfile(const QString &dir, const QString &fileName, const ProfileSpec &spec)
{
    QString consumer;
    for (auto it = spec.consumerProperties.cbegin(); it != spec.consumerProperties.cend(); ++it)
        consumer += QStringLiteral("%1\"%2\": \"%3\"")
                        .arg(consumer.isEmpty() ? QString() : QStringLiteral(", "), jsonEscaped(it.key()),
                             jsonEscaped(it.value()));
    const QString source =
        consumer.isEmpty() ? QStringLiteral("{\"alias\": \"src\", \"bootstrap\": \"%1\"}").arg(sourceBootstrap())
                           : QStringLiteral("{\"alias\": \"src\", \"bootstrap\": \"%1\", \"consumerProperties\": {%2}}")
                                 .arg(sourceBootstrap(), consumer);
    QString json = QStringLiteral("{\n \"mirrordesk\": 1,\n \"name\": \"%1\",\n \"source\": %2,\n"
                                  " \"target\": {\"alias\": \"dst\", \"bootstrap\": \"%3\"},\n"
                                  " \"topics\": {\"include\": [\"%4\"]},\n"
                                  " \"naming\": %6,\n"
                                  " \"start\": %5")
                       .arg(jsonEscaped(spec.name), source, targetBootstrap(),
                            jsonEscaped(QRegularExpression::escape(spec.topic)), spec.start, spec.naming);
    if (spec.throttleBytesPerSecond > 0)
        json += QStringLiteral(",\n \"throttleBytesPerSecond\": %1").arg(spec.throttleBytesPerSecond);
    json += spec.extra + QStringLiteral("\n}\n");
    const QString path = QDir(dir).filePath(fileName);
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return {};
    f.write(json.toUtf8());
    return path;
}

// ------------------------------------------------------------------ progress lines

// The test's own monotonic clock (ms), shared by every child process.
inline qint64 testClockMs()
{
    static QElapsedTimer clock = [] {
        QElapsedTimer t;
        t.start();
        return t;
    }();
    return clock.elapsed();
}

// "12.3 k" -> 12300; "1.20 M" -> 1200000; "987" -> 987.
inline double parseCount(const QString &number, const QString &unit)
{
    const double v = number.toDouble();
    if (unit == QLatin1String("k"))
        return v * 1e3;
    if (unit == QLatin1String("M"))
        return v * 1e6;
    if (unit == QLatin1String("G"))
        return v * 1e9;
    return v;
}

struct ProgressLine {
    qint64 atMs = 0;     // testClockMs() when the test read it
    double elapsedS = 0; // the run's own "[  12]"
    QString state;
    qint64 copied = 0; // records acknowledged by the target in this run (k/M resolution above 10,000)
    double rate = 0;   // records/s over the last second (exact below 10,000/s)
    qint64 lag = 0;
    int partitions = 0;
    bool caughtUp = false;
};

inline std::optional<ProgressLine> parseProgressLine(const QString &line)
{
    static const QRegularExpression re(QStringLiteral(
        R"(^\[\s*(\d+)\]\s+(.*?)\s+copied\s+([0-9.]+)(?:\s([kMG]))?\s+\(([0-9.]+)(?:\s([kMG]))?/s,[^)]*\)\s+lag\s+([0-9.]+)(?:\s([kMG]))?.*?\spartitions\s+(\d+))"));
    const QRegularExpressionMatch m = re.match(line);
    if (!m.hasMatch())
        return std::nullopt;
    ProgressLine p;
    p.elapsedS = m.captured(1).toDouble();
    p.state = m.captured(2);
    p.copied = qint64(parseCount(m.captured(3), m.captured(4)));
    p.rate = parseCount(m.captured(5), m.captured(6));
    p.lag = qint64(parseCount(m.captured(7), m.captured(8)));
    p.partitions = m.captured(9).toInt();
    // Last on the line, after optional fields such as " vanished N".
    p.caughtUp = line.trimmed().endsWith(QLatin1String(" caught-up"));
    return p;
}

// ------------------------------------------------------------------ a running `mirrordesk run`

// One `mirrordesk run` child. Output is read on the test's event loop, so wait
// with waitUntil() (or QTest::qWait), never with a blocking QProcess call.
class MirrorRun final {
public:
    explicit MirrorRun(QString label) : m_label(std::move(label))
    {
        QObject::connect(&m_process, &QProcess::readyReadStandardOutput, &m_process, [this] { readOut(); });
        QObject::connect(&m_process, &QProcess::readyReadStandardError, &m_process,
                         [this] { m_err += QString::fromUtf8(m_process.readAllStandardError()); });
        QObject::connect(&m_process, &QProcess::finished, &m_process, [this](int code, QProcess::ExitStatus status) {
            readOut();
            m_err += QString::fromUtf8(m_process.readAllStandardError());
            m_exitCode = status == QProcess::NormalExit ? code : -1;
            m_finishedAtMs = testClockMs();
        });
    }
    ~MirrorRun()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.kill();
            m_process.waitForFinished(10000);
        }
    }
    MirrorRun(const MirrorRun &) = delete;
    MirrorRun &operator=(const MirrorRun &) = delete;

    bool start(const QStringList &args)
    {
        m_startedAtMs = testClockMs();
        m_process.start(mirrordeskExe(), args);
        return m_process.waitForStarted(30000);
    }

    // Spins the event loop until cond() or timeoutMs; true when cond() held.
    static bool waitUntil(const std::function<bool()> &cond, int timeoutMs) { return QTest::qWaitFor(cond, timeoutMs); }

    bool running() const { return m_process.state() != QProcess::NotRunning && m_finishedAtMs < 0; }
    bool finished() const { return m_finishedAtMs >= 0; }
    int exitCode() const { return m_exitCode; } // -1: crashed, killed or still running
    qint64 finishedAtMs() const { return m_finishedAtMs; }
    qint64 startedAtMs() const { return m_startedAtMs; }
    qint64 pid() const { return m_process.processId(); }
    const QString &label() const { return m_label; }

    void signal(int sig)
    {
        if (running())
            ::kill(pid_t(m_process.processId()), sig);
    }
    // kill -9: no flush, no commit, no leave-group.
    bool crash(int timeoutMs = 10000)
    {
        signal(SIGKILL);
        return waitUntil([this] { return finished(); }, timeoutMs) && m_process.exitStatus() == QProcess::CrashExit;
    }
    // SIGTERM and wait for the exit; true when it exited 0.
    bool stop(int timeoutMs = 60000)
    {
        signal(SIGTERM);
        return waitUntil([this] { return finished(); }, timeoutMs) && m_exitCode == 0;
    }
    bool waitForExit(int timeoutMs)
    {
        return waitUntil([this] { return finished(); }, timeoutMs);
    }

    bool outputContains(const QString &s) const { return m_out.contains(s); }
    bool waitForOutput(const QString &s, int timeoutMs)
    {
        return waitUntil([&] { return m_out.contains(s) || finished(); }, timeoutMs) && m_out.contains(s);
    }

    const QList<ProgressLine> &progress() const { return m_progress; }
    qint64 copied() const { return m_progress.isEmpty() ? 0 : m_progress.last().copied; }
    bool caughtUp() const { return !m_progress.isEmpty() && m_progress.last().caughtUp; }

    // The highest "R/s" of the last `lines` progress lines at or before atMs
    // (atMs < 0: the latest): a conservative copy rate for a duplicate bound.
    double recentRate(int lines = 3, qint64 atMs = -1) const
    {
        double best = 0;
        int n = 0;
        for (qsizetype i = m_progress.size() - 1; i >= 0 && n < lines; --i) {
            if (atMs >= 0 && m_progress[i].atMs > atMs)
                continue;
            best = std::max(best, m_progress[i].rate);
            ++n;
        }
        return best;
    }

    const QString &out() const { return m_out; }
    const QString &err() const { return m_err; }
    // For failure messages: the events (stderr) and the last progress lines
    // (stdout), each cut to its tail when long, so neither hides the other.
    QString transcript(int maxChars = 6000) const
    {
        const auto tail = [](const QString &text, qsizetype chars) {
            return text.size() > chars ? QStringLiteral("...") + text.right(chars) : text;
        };
        return QStringLiteral("--- %1 (exit %2) stderr:\n%3\n--- stdout:\n%4")
            .arg(m_label)
            .arg(m_exitCode)
            .arg(tail(m_err, maxChars * 2 / 3), tail(m_out, maxChars / 3));
    }

private:
    void readOut()
    {
        m_partialLine += QString::fromUtf8(m_process.readAllStandardOutput());
        qsizetype nl;
        while ((nl = m_partialLine.indexOf(QLatin1Char('\n'))) >= 0) {
            const QString line = m_partialLine.left(nl);
            m_partialLine.remove(0, nl + 1);
            m_out += line + QLatin1Char('\n');
            if (auto p = parseProgressLine(line)) {
                p->atMs = testClockMs();
                m_progress.append(*p);
            }
        }
    }

    QString m_label;
    QString m_out, m_err, m_partialLine;
    QList<ProgressLine> m_progress;
    int m_exitCode = -1;
    qint64 m_startedAtMs = -1;
    qint64 m_finishedAtMs = -1;
    QProcess m_process; // last: destroyed first, before what its signals touch
};

// ------------------------------------------------------------------ Kafka's own tools

struct KafkaTools {
    QString java;
    QString libs; // directory of the Kafka jars
    QString error;
    bool ok() const { return error.isEmpty(); }
};

// Where tests/kafka/harness.sh keeps the Kafka jars (its own computation from
// the POM's kafka.version: $XDG_CACHE_HOME/mirrordesk/kafka-VERSION/libs),
// checked for `jar` (e.g. "connect-mirror" or "kafka-tools"), and java.
inline KafkaTools kafkaTools(const QString &jar = QStringLiteral("kafka-tools"))
{
    KafkaTools t;
    QFile pom(QStringLiteral(MIRRORDESK_SOURCE_DIR "/tests/kafka/pom.xml"));
    if (!pom.open(QIODevice::ReadOnly)) {
        t.error = QStringLiteral("cannot read tests/kafka/pom.xml");
        return t;
    }
    const QRegularExpressionMatch m = QRegularExpression(QStringLiteral("<kafka.version>([^<]+)</kafka.version>"))
                                          .match(QString::fromUtf8(pom.readAll()));
    if (!m.hasMatch()) {
        t.error = QStringLiteral("no <kafka.version> in tests/kafka/pom.xml");
        return t;
    }
    QString cache = qEnvironmentVariable("XDG_CACHE_HOME");
    if (cache.isEmpty())
        cache = QDir::homePath() + QStringLiteral("/.cache");
    t.libs = cache + QStringLiteral("/mirrordesk/kafka-") + m.captured(1) + QStringLiteral("/libs");
    if (!QFile::exists(t.libs + QLatin1Char('/') + jar + QLatin1Char('-') + m.captured(1) + QStringLiteral(".jar"))) {
        t.error = QStringLiteral("%1-%2.jar is not in %3 (run: bash tests/kafka/harness.sh fetch)")
                      .arg(jar, m.captured(1), t.libs);
        return t;
    }
    t.java = QStandardPaths::findExecutable(QStringLiteral("java"));
    if (t.java.isEmpty())
        t.error = QStringLiteral("java not found");
    return t;
}

// Runs a Kafka tool's main class; false (with *error: its output) on failure.
inline bool runKafkaTool(const QString &mainClass, const QStringList &args, QString *out, QString *error,
                         int timeoutMs = 120000)
{
    const KafkaTools tools = kafkaTools();
    if (!tools.ok()) {
        *error = tools.error;
        return false;
    }
    QProcess p;
    p.start(tools.java,
            QStringList{QStringLiteral("-Xms32m"), QStringLiteral("-Xmx256m"), QStringLiteral("-XX:+UseSerialGC"),
                        QStringLiteral("-XX:TieredStopAtLevel=1"), QStringLiteral("-Djava.awt.headless=true"),
                        QStringLiteral("-cp"), tools.libs + QStringLiteral("/*"), mainClass} +
                args);
    const ExeResult r = finishProcess(p, timeoutMs);
    *out = r.out;
    if (r.exitCode != 0) {
        *error = QStringLiteral("%1 %2: exit %3\n%4\n%5")
                     .arg(mainClass, args.join(QLatin1Char(' ')))
                     .arg(r.exitCode)
                     .arg(r.out.right(3000), r.err.right(3000));
        return false;
    }
    return true;
}

// First statement of a test that needs Kafka's tools: fail under CI, skip otherwise.
#define MD_REQUIRE_KAFKA_TOOLS()                                                                                       \
    do {                                                                                                               \
        const ::md::test::KafkaTools md_tools_ = ::md::test::kafkaTools();                                             \
        if (!md_tools_.ok()) {                                                                                         \
            if (::md::test::isCi())                                                                                    \
                QFAIL(qPrintable(md_tools_.error));                                                                    \
            else                                                                                                       \
                QSKIP(qPrintable(md_tools_.error));                                                                    \
        }                                                                                                              \
    } while (false)

// Kafka's VerifiableProducer: `count` records with values "<prefix>.<i>"
// (i = 0..count-1, so unique across prefixes) and keys "0".."999" repeating,
// acks=all. Returns the acknowledged values, or nullopt (and *error) unless all
// `count` were acknowledged.
inline std::optional<QStringList> verifiableProduce(const QString &bootstrap, const QString &topic, int count,
                                                    int prefix, QString *error)
{
    QString out;
    if (!runKafkaTool(QStringLiteral("org.apache.kafka.tools.VerifiableProducer"),
                      {QStringLiteral("--bootstrap-server"), bootstrap, QStringLiteral("--topic"), topic,
                       QStringLiteral("--max-messages"), QString::number(count), QStringLiteral("--value-prefix"),
                       QString::number(prefix), QStringLiteral("--repeating-keys"), QStringLiteral("1000"),
                       QStringLiteral("--acks"), QStringLiteral("-1")},
                      &out, error))
        return std::nullopt;
    QStringList acked;
    for (const QString &line : out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QJsonObject o = QJsonDocument::fromJson(line.toUtf8()).object();
        if (o.value(QStringLiteral("name")).toString() == QLatin1String("producer_send_success"))
            acked << o.value(QStringLiteral("value")).toString();
    }
    if (acked.size() != count) {
        *error = QStringLiteral("VerifiableProducer: %1 of %2 records acknowledged\n%3")
                     .arg(acked.size())
                     .arg(count)
                     .arg(out.right(2000));
        return std::nullopt;
    }
    return acked;
}

// Kafka's GetOffsetShell: the end offset (--time -1) of every partition of `topic`.
inline std::optional<QMap<int, qint64>> endOffsets(const QString &bootstrap, const QString &topic, QString *error)
{
    QString out;
    if (!runKafkaTool(QStringLiteral("org.apache.kafka.tools.GetOffsetShell"),
                      {QStringLiteral("--bootstrap-server"), bootstrap, QStringLiteral("--topic"),
                       QRegularExpression::escape(topic), QStringLiteral("--time"), QStringLiteral("-1")},
                      &out, error))
        return std::nullopt;
    QMap<int, qint64> ends;
    for (const QString &line : out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        // topic:partition:offset
        const qsizetype last = line.lastIndexOf(QLatin1Char(':'));
        const qsizetype mid = line.lastIndexOf(QLatin1Char(':'), last - 1);
        if (last < 0 || mid < 0 || line.left(mid) != topic)
            continue;
        ends.insert(line.mid(mid + 1, last - mid - 1).toInt(), line.mid(last + 1).trimmed().toLongLong());
    }
    if (ends.isEmpty()) {
        *error = QStringLiteral("GetOffsetShell: no offsets for %1:\n%2").arg(topic, out.right(2000));
        return std::nullopt;
    }
    return ends;
}

inline qint64 sumOf(const QMap<int, qint64> &offsets)
{
    qint64 n = 0;
    for (qint64 o : offsets)
        n += o;
    return n;
}

// Kafka's ConsumerGroupCommand --describe --state: the group's assignment
// strategy as the coordinator reports it ("range", "cooperative-sticky", ...;
// empty while the group has no members). nullopt (and *error) on failure.
inline std::optional<QString> groupAssignmentStrategy(const QString &bootstrap, const QString &group, QString *error)
{
    QString out;
    if (!runKafkaTool(QStringLiteral("org.apache.kafka.tools.consumer.group.ConsumerGroupCommand"),
                      {QStringLiteral("--bootstrap-server"), bootstrap, QStringLiteral("--describe"),
                       QStringLiteral("--group"), group, QStringLiteral("--state")},
                      &out, error))
        return std::nullopt;
    qsizetype column = -1;
    for (const QString &line : out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        if (line.startsWith(QLatin1String("GROUP")))
            column = line.indexOf(QLatin1String("ASSIGNMENT-STRATEGY"));
        else if (column >= 0 && line.startsWith(group + QLatin1Char(' ')))
            return line.mid(column).section(QLatin1Char(' '), 0, 0).trimmed();
    }
    *error = QStringLiteral("ConsumerGroupCommand: no state for group %1:\n%2").arg(group, out.right(2000));
    return std::nullopt;
}

// Kafka's ConsoleConsumer: the values of the first `count` records of `topic`
// from the beginning (read_committed; a fresh group of its own). nullopt (and
// *error) when fewer than `count` arrive.
// `atMost`: count is an upper bound (a transactional topic's end offsets count
// its markers too): what was read within the timeout is the answer.
inline std::optional<QStringList> consoleConsume(const QString &bootstrap, const QString &topic, qint64 count,
                                                 QString *error, bool atMost = false)
{
    if (count == 0)
        return QStringList();
    QString out;
    if (!runKafkaTool(QStringLiteral("org.apache.kafka.tools.consumer.ConsoleConsumer"),
                      {QStringLiteral("--bootstrap-server"), bootstrap, QStringLiteral("--topic"), topic,
                       QStringLiteral("--from-beginning"), QStringLiteral("--max-messages"), QString::number(count),
                       QStringLiteral("--timeout-ms"), QStringLiteral("20000"), QStringLiteral("--isolation-level"),
                       QStringLiteral("read_committed"), QStringLiteral("--group"),
                       uniqueName(QStringLiteral("reader"))},
                      &out, error, 180000))
        return std::nullopt;
    QStringList values = out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    if (atMost) // the tool's own report of its timeout goes to stdout too
        values.removeIf([](const QString &l) {
            return l.contains(QLatin1String("ERROR org.apache.kafka.tools.consumer.ConsoleConsumer")) ||
                   l.startsWith(QLatin1String("org.apache.kafka.common.errors.TimeoutException"));
        });
    if (values.size() < count && !atMost) {
        *error = QStringLiteral("ConsoleConsumer read %1 of %2 records of %3").arg(values.size()).arg(count).arg(topic);
        return std::nullopt;
    }
    return values;
}

// What the target holds against what the source was written with (values
// unique on the source).
struct TargetContents {
    qint64 records = 0;     // on the target (end offsets; read_committed records of a transactional target)
    qint64 duplicates = 0;  // records - distinct values
    QStringList missing;    // source values not on the target
    QStringList unexpected; // target values not among `expected`
    QString summary() const
    {
        return QStringLiteral("%1 records on the target, %2 duplicates, %3 missing (%4), %5 unexpected (%6)")
            .arg(records)
            .arg(duplicates)
            .arg(missing.size())
            .arg(missing.mid(0, 10).join(QLatin1Char(' ')))
            .arg(unexpected.size())
            .arg(unexpected.mid(0, 10).join(QLatin1Char(' ')));
    }
};

// Counts a topic with GetOffsetShell and reads it with ConsoleConsumer.
// `transactional`: written by an exactly-once job, whose end offsets include
// transaction markers: what a read_committed reader sees is counted instead.
inline std::optional<TargetContents> readTopic(const QString &bootstrap, const QString &topic,
                                               const QStringList &expected, QString *error, bool transactional = false)
{
    const auto ends = endOffsets(bootstrap, topic, error);
    if (!ends)
        return std::nullopt;
    TargetContents c;
    c.records = sumOf(*ends);
    const auto values = consoleConsume(bootstrap, topic, c.records, error, transactional);
    if (!values)
        return std::nullopt;
    if (transactional)
        c.records = values->size();
    const QSet<QString> want(expected.cbegin(), expected.cend());
    QSet<QString> seen;
    for (const QString &v : *values) {
        if (seen.contains(v))
            ++c.duplicates;
        seen.insert(v);
        if (!want.contains(v))
            c.unexpected << v;
    }
    for (const QString &v : expected)
        if (!seen.contains(v))
            c.missing << v;
    return c;
}

inline std::optional<TargetContents> readTarget(const QString &targetTopic, const QStringList &expected, QString *error,
                                                bool transactional = false)
{
    return readTopic(targetBootstrap(), targetTopic, expected, error, transactional);
}

} // namespace md::test

// Job profiles that are not JSON or not readable: syntax errors with line
// and column, truncated, corrupted, oversized and missing files, and a cap on
// the number of problems.

#include "JobProfileTestUtil.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

using namespace md;
using namespace md::test;

// No raw string literals below: moc (6.4) loses the class on some of them.
class TstProfileFiles final : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void syntaxError_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<int>("line");
        QTest::addColumn<int>("column");
        QTest::addColumn<QString>("message");

        QTest::newRow("empty") << QByteArray() << 0 << 0 << "file is empty";
        QTest::newRow("only whitespace") << QByteArray(" \n\t\n") << 0 << 0 << "file is empty";
        QTest::newRow("NUL bytes") << QByteArray("{\"a\"\0\0\0", 7) << 1 << 5 << "binary data";
        QTest::newRow("png header") << QByteArray("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16) << 3 << 1 << "binary data";
        QTest::newRow("invalid UTF-8") << QByteArray("{\n  \"name\": \"a\xff\"\n}") << 2 << 13
                                       << "invalid UTF-8 (byte 0xff)";
        QTest::newRow("overlong UTF-8") << QByteArray("{\"n\": \"\xc0\xaf\"}") << 1 << 8 << "invalid UTF-8";
        QTest::newRow("UTF-16 surrogate in UTF-8")
            << QByteArray("{\"n\": \"\xed\xa0\x80\"}") << 1 << 8 << "invalid UTF-8";
        QTest::newRow("truncated after value")
            << QByteArray("{\n  \"mirrordesk\": 1,\n  \"name\": \"x\"") << 3 << 14 << "truncated?";
        QTest::newRow("truncated in string") << QByteArray("{\n  \"name\": \"abc") << 2 << 15 << "truncated?";
        QTest::newRow("truncated after brace") << QByteArray("{") << 1 << 2 << "truncated?";
        // Columns count characters: "äöü" is six bytes but three columns. Qt's
        // parser reports the position just after the offending token.
        QTest::newRow("missing comma after UTF-8")
            << QByteArray("{\n\"name\": \"äöü\" \"mirrordesk\": 1}") << 2 << 16 << "JSON syntax error";
        QTest::newRow("missing colon") << QByteArray("{\n  \"a\" 1}") << 2 << 8 << "missing name separator";
        QTest::newRow("garbage at end") << QByteArray("{\"mirrordesk\": 1}\n}") << 2 << 1 << "garbage at the end";
        QTest::newRow("trailing comma") << QByteArray("{\"mirrordesk\": 1,\n}") << 2 << 2 << "JSON syntax error";
        QTest::newRow("top-level array") << QByteArray("  [1, 2]") << 1 << 3 << "found an array";
        QTest::newRow("top-level number") << QByteArray("\n42") << 2 << 1 << "found a number";
        QTest::newRow("top-level string") << QByteArray("\"profile\"") << 1 << 1 << "found a string";
        QTest::newRow("top-level null") << QByteArray("null") << 1 << 1 << "found null";
        QTest::newRow("top-level true") << QByteArray("true") << 1 << 1 << "found a boolean";
        QTest::newRow("not JSON at all") << QByteArray("mirrordesk = 1\n") << 1 << 1 << "not JSON";
        QTest::newRow("deep nesting") << (QByteArray("{\"a\":") + QByteArray(5000, '[') + QByteArray(5000, ']') + "}")
                                      << 0 << 0 << "JSON syntax error";
    }

    void syntaxError()
    {
        QFETCH(QByteArray, data);
        QFETCH(int, line);
        QFETCH(int, column);
        QFETCH(QString, message);

        QList<ProfileIssue> issues;
        JobProfile::fromJson(data, QStringLiteral("bad.mirrorjob"), &issues);
        const QList<ProfileIssue> errors = errorsOf(issues);
        QVERIFY2(errors.size() == 1, qPrintable(describe(issues)));
        const ProfileIssue &e = errors.first();
        QCOMPARE(e.file, QStringLiteral("bad.mirrorjob"));
        QVERIFY2(e.message.contains(message), qPrintable(e.toString()));
        QVERIFY(e.keyPath.isEmpty());
        if (line > 0) {
            QCOMPARE(e.line, line);
            QCOMPARE(e.column, column);
            QVERIFY2(e.toString().startsWith(QStringLiteral("bad.mirrorjob:%1:%2: error: ").arg(line).arg(column)),
                     qPrintable(e.toString()));
        }

        // load() refuses the same bytes from a file and names the path.
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("bad.mirrorjob"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(data);
        f.close();
        QList<ProfileIssue> loadIssues;
        QVERIFY(!JobProfile::load(path, &loadIssues));
        QVERIFY(hasErrors(loadIssues));
        QCOMPARE(loadIssues.first().file, path);
    }

    // ------------------------------------------------------------ meaning: key paths

    void everyTruncationIsAnError()
    {
        const QByteArray full = fullProfile().toJson();
        for (qsizetype n = 0; n < full.size(); ++n) {
            QList<ProfileIssue> issues;
            JobProfile::fromJson(full.left(n), QStringLiteral("t"), &issues);
            // Cutting inside the trailing newline leaves a complete object.
            if (full.left(n).trimmed() == full.trimmed())
                continue;
            QVERIFY2(hasErrors(issues), qPrintable(QStringLiteral("prefix of %1 bytes accepted").arg(n)));
        }
    }

    void randomBytesNeverCrash()
    {
        const QByteArray full = fullProfile().toJson();
        QRandomGenerator rng(20261101);
        for (int round = 0; round < 3000; ++round) {
            QByteArray data = full;
            const int flips = 1 + int(rng.bounded(4));
            for (int k = 0; k < flips; ++k)
                data[qsizetype(rng.bounded(quint32(data.size())))] = char(rng.bounded(256));
            QList<ProfileIssue> issues;
            const JobProfile p = JobProfile::fromJson(data, QStringLiteral("t"), &issues);
            if (!hasErrors(issues)) {
                // Whatever parsed cleanly must also write out and read back.
                QList<ProfileIssue> again;
                JobProfile::fromJson(p.toJson(), QStringLiteral("t"), &again);
                QVERIFY2(!hasErrors(again), qPrintable(describe(again)));
            }
        }
        for (int round = 0; round < 200; ++round) {
            QByteArray noise(qsizetype(rng.bounded(2000)), Qt::Uninitialized);
            for (char &c : noise)
                c = char(rng.bounded(256));
            QList<ProfileIssue> issues;
            JobProfile::fromJson(noise, QStringLiteral("noise"), &issues);
            QVERIFY(hasErrors(issues));
        }
    }

    void oversizedFileIsRefused()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("huge.mirrorjob"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        const QByteArray pad = "{\"mirrordesk\": 1, \"name\": \"" + QByteArray(JobProfile::MaxFileSize, 'x') + "\"}";
        f.write(pad);
        f.close();
        QList<ProfileIssue> issues;
        QVERIFY(!JobProfile::load(path, &issues));
        QCOMPARE(issues.size(), 1);
        QVERIFY2(issues.first().message.contains(QLatin1String("too large")), qPrintable(issues.first().toString()));
        QCOMPARE(issues.first().file, path);

        issues.clear();
        JobProfile::fromJson(pad, QStringLiteral("huge"), &issues);
        QVERIFY(hasErrors(issues));
        QVERIFY(issues.first().message.contains(QLatin1String("too large")));
    }

    void manyProblemsAreCapped()
    {
        QJsonArray include;
        for (int i = 0; i < 5000; ++i)
            include.append(i % 2 ? QJsonValue(i) : QJsonValue(QStringLiteral("(bad")));
        QList<ProfileIssue> issues;
        JobProfile::fromJson(profileWith(QStringLiteral("topics.include"), include), QStringLiteral("many"), &issues);
        QCOMPARE(issues.size(), 201);
        QCOMPARE(issues.last().message, QStringLiteral("4800 more problems not shown"));
        QVERIFY(issues.last().isError());
    }

    void missingAndDirectoryPaths()
    {
        QTemporaryDir dir;
        QList<ProfileIssue> issues;
        QVERIFY(!JobProfile::load(dir.filePath(QStringLiteral("nope.mirrorjob")), &issues));
        QVERIFY(issues.first().message.contains(QLatin1String("file not found")));
        issues.clear();
        QVERIFY(!JobProfile::load(dir.path(), &issues));
        QVERIFY(issues.first().message.contains(QLatin1String("directory")));
    }

    // ------------------------------------------------------------ warnings
};

QTEST_GUILESS_MAIN(TstProfileFiles)
#include "tst_profilefiles.moc"

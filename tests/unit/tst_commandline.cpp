// The command line of the real executable, the same for every command: --help
// (exit 0, the command's options on stdout), an unknown option (exit 2, named as
// typed, with the usage), a missing or extra FILE (exit 2 with the usage), and
// `--name=value` as well as `--name value`. Nothing here contacts a cluster.
// `run` parses its own command line (tst_headless_run checks it); here only
// what every command shares.
#include "ProcessTestUtil.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest/QtTest>

namespace {

const QString kExe = QStringLiteral(MIRRORDESK_BINARY_DIR "/app/mirrordesk");

using Result = md::test::ExeResult;

Result run(const QStringList &args, int timeoutMs = 30000)
{
    return md::test::runProcess(kExe, args, timeoutMs);
}

QString describe(const QStringList &args, const Result &r)
{
    return QStringLiteral("mirrordesk %1: exit %2\n--- stdout:\n%3--- stderr:\n%4")
        .arg(args.join(QLatin1Char(' ')))
        .arg(r.exitCode)
        .arg(r.out, r.err);
}

} // namespace

class TestCommandLine : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    // Both clusters of m_profile: connections are taken (by the kernel) and never answered.
    QTcpServer m_silent;
    QString m_profile;

    QString write(const QString &name, const QByteArray &data)
    {
        const QString path = m_dir.filePath(name);
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly) || f.write(data) != data.size())
            return QString();
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (!QFile::exists(kExe))
            QFAIL(qPrintable(QStringLiteral("not built: ") + kExe));
        QVERIFY(m_dir.isValid());
        QVERIFY(m_silent.listen(QHostAddress::LocalHost));
        const QString silent = QStringLiteral("127.0.0.1:%1").arg(m_silent.serverPort());
        m_profile = write(QStringLiteral("job.mirrorjob"), QStringLiteral(R"({"mirrordesk": 1, "name": "cli",
            "source": {"alias": "src", "bootstrap": "%1"},
            "target": {"alias": "dst", "bootstrap": "%1"},
            "topics": {"include": ["orders"]}, "naming": {"policy": "prefix"}, "start": "earliest"})")
                                                               .arg(silent)
                                                               .toUtf8());
        QVERIFY(!m_profile.isEmpty());
    }

    // Every command's help: exit 0, on stdout, with the command's own options.
    void help_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QStringList>("options");
        QTest::newRow("run") << QStringLiteral("run")
                             << QStringList{QStringLiteral("--until-caught-up"), QStringLiteral("--sandbox"),
                                            QStringLiteral("--metrics-port"), QStringLiteral("--instance-id")};
        QTest::newRow("verify") << QStringLiteral("verify")
                                << QStringList{QStringLiteral("--topic REGEX"), QStringLiteral("--timeout SECONDS")};
        QTest::newRow("check") << QStringLiteral("check") << QStringList{QStringLiteral("FILE.mirrorjob")};
        QTest::newRow("reset") << QStringLiteral("reset")
                               << QStringList{QStringLiteral("--to earliest"), QStringLiteral("--topic REGEX"),
                                              QStringLiteral("--dry-run")};
        QTest::newRow("import-mm2") << QStringLiteral("import-mm2")
                                    << QStringList{QStringLiteral("-o, --output DIR"), QStringLiteral("--force")};
        QTest::newRow("lag") << QStringLiteral("lag")
                             << QStringList{QStringLiteral("--group ID"),           QStringLiteral("--groups REGEX"),
                                            QStringLiteral("--side source|target"), QStringLiteral("--once"),
                                            QStringLiteral("--interval SECONDS"),   QStringLiteral("--metrics-port N")};
        QTest::newRow("export-mm2") << QStringLiteral("export-mm2")
                                    << QStringList{QStringLiteral("-o, --output FILE"), QStringLiteral("--connect"),
                                                   QStringLiteral("--replication-factor N"),
                                                   QStringLiteral("--single-broker")};
    }
    void help()
    {
        QFETCH(QString, command);
        QFETCH(QStringList, options);
        for (const QString &flag : {QStringLiteral("--help"), QStringLiteral("-h")}) {
            const QStringList args{command, flag};
            const Result r = run(args);
            QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
            QVERIFY2(r.out.startsWith(QStringLiteral("usage: mirrordesk ") + command + QLatin1Char(' ')),
                     qPrintable(describe(args, r)));
            for (const QString &o : options)
                QVERIFY2(r.out.contains(o), qPrintable(o + QStringLiteral(" missing in ") + describe(args, r)));
            QVERIFY2(r.out.contains(QStringLiteral("-h, --help")), qPrintable(describe(args, r)));
            QVERIFY2(r.err.isEmpty(), qPrintable(describe(args, r)));
        }
        // Help wins over a missing FILE or a missing required option, wherever it stands.
        const QStringList late{command, m_dir.filePath(QStringLiteral("nope.mirrorjob")), QStringLiteral("--help")};
        const Result r = run(late);
        QVERIFY2(r.exitCode == 0 && r.out.startsWith(QStringLiteral("usage: mirrordesk ") + command),
                 qPrintable(describe(late, r)));
    }

    // Usage errors: exit 2, "mirrordesk <command>: <problem>" and the usage on stderr, nothing on stdout.
    void usageErrors_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("problem");
        const QString file = QStringLiteral("job.mirrorjob");
        const QString out = QStringLiteral("--output=out");
        for (const QString &command : {QStringLiteral("verify"), QStringLiteral("check"), QStringLiteral("reset"),
                                       QStringLiteral("import-mm2"), QStringLiteral("export-mm2")}) {
            // What a command needs besides FILE, so that only the tested problem is left.
            const QStringList needed = command == QLatin1String("reset")
                                           ? QStringList{QStringLiteral("--to"), QStringLiteral("latest")}
                                       : command == QLatin1String("import-mm2") ? QStringList{out}
                                                                                : QStringList{};
            const QString what = command == QLatin1String("import-mm2") ? QStringLiteral("mm2.properties file")
                                                                        : QStringLiteral("profile");
            const auto row = [&](const char *name) {
                return &QTest::newRow(qPrintable(command + QLatin1Char(' ') + QLatin1String(name)));
            };
            *row("--bogus") << command << (QStringList{file} + needed + QStringList{QStringLiteral("--bogus")})
                            << QStringLiteral("unknown option --bogus\n");
            *row("--bogus=1 before FILE") << command << (QStringList{QStringLiteral("--bogus=1"), file} + needed)
                                          << QStringLiteral("unknown option --bogus\n");
            *row("-bogus") << command << (QStringList{file, QStringLiteral("-bogus")} + needed)
                           << QStringLiteral("unknown option -bogus\n");
            *row("-x") << command << (QStringList{file, QStringLiteral("-x")} + needed)
                       << QStringLiteral("unknown option -x\n");
            *row("no FILE") << command << needed << QStringLiteral("no %1 given\n").arg(what);
            *row("two FILEs") << command << (QStringList{file, QStringLiteral("other")} + needed)
                              << QStringLiteral("more than one %1 given: %2 other\n").arg(what, file);
        }
        QTest::newRow("run --bogus") << QStringLiteral("run") << QStringList{file, QStringLiteral("--bogus")}
                                     << QStringLiteral("unknown option --bogus\n");
        QTest::newRow("run --bogus=1 before FILE")
            << QStringLiteral("run") << QStringList{QStringLiteral("--bogus=1"), file}
            << QStringLiteral("unknown option --bogus\n");
        QTest::newRow("run no FILE") << QStringLiteral("run") << QStringList{QStringLiteral("--until-caught-up")}
                                     << QStringLiteral("no profile given\n");
        QTest::newRow("run --metrics-port=0")
            << QStringLiteral("run") << QStringList{file, QStringLiteral("--metrics-port=0")}
            << QStringLiteral("--metrics-port needs a port number from 1 to 65535\n");
        QTest::newRow("verify --topic without a value")
            << QStringLiteral("verify") << QStringList{file, QStringLiteral("--topic")}
            << QStringLiteral("missing value after '--topic'\n");
        QTest::newRow("verify --timeout=abc")
            << QStringLiteral("verify") << QStringList{file, QStringLiteral("--timeout=abc")}
            << QStringLiteral("--timeout: not a number of seconds between 0 and 3600: abc\n");
        QTest::newRow("reset --to=yesterday")
            << QStringLiteral("reset") << QStringList{file, QStringLiteral("--to=yesterday")}
            << QStringLiteral("--to: \"yesterday\" is not an ISO 8601 date and time");
        QTest::newRow("reset without --to")
            << QStringLiteral("reset") << QStringList{file} << QStringLiteral("--to is required");
        QTest::newRow("import-mm2 without --output")
            << QStringLiteral("import-mm2") << QStringList{file} << QStringLiteral("--output DIR is required\n");
        QTest::newRow("export-mm2 --replication-factor=0")
            << QStringLiteral("export-mm2") << QStringList{file, QStringLiteral("--replication-factor=0")}
            << QStringLiteral("--replication-factor needs a number from 1 to 32767\n");
        QTest::newRow("lag without groups")
            << QStringLiteral("lag") << QStringList{file}
            << QStringLiteral("name the groups to watch: --group ID or --groups REGEX\n");
        QTest::newRow("lag --side=middle")
            << QStringLiteral("lag") << QStringList{file, QStringLiteral("--group=g"), QStringLiteral("--side=middle")}
            << QStringLiteral("--side: \"middle\" is neither source nor target\n");
        QTest::newRow("lag --interval=0")
            << QStringLiteral("lag") << QStringList{file, QStringLiteral("--group=g"), QStringLiteral("--interval=0")}
            << QStringLiteral("--interval needs a number of seconds from 1 to 86400\n");
        QTest::newRow("lag --groups=(") << QStringLiteral("lag") << QStringList{file, QStringLiteral("--groups=(")}
                                        << QStringLiteral("--groups: ");
        QTest::newRow("lag --metrics-address alone")
            << QStringLiteral("lag")
            << QStringList{file, QStringLiteral("--group=g"), QStringLiteral("--metrics-address=0.0.0.0")}
            << QStringLiteral("--metrics-address needs --metrics-port\n");
        QTest::newRow("export-mm2 --connect=yes")
            << QStringLiteral("export-mm2") << QStringList{file, QStringLiteral("--connect=yes")}
            << QStringLiteral("unexpected value after '--connect'\n");
    }
    void usageErrors()
    {
        QFETCH(QString, command);
        QFETCH(QStringList, args);
        QFETCH(QString, problem);
        const QStringList all = QStringList{command} + args;
        const Result r = run(all);
        QVERIFY2(r.exitCode == 2, qPrintable(describe(all, r)));
        QVERIFY2(r.err.startsWith(QStringLiteral("mirrordesk %1: %2").arg(command, problem)),
                 qPrintable(describe(all, r)));
        QVERIFY2(r.err.contains(QStringLiteral("usage: mirrordesk ") + command + QLatin1Char(' ')),
                 qPrintable(describe(all, r)));
        QVERIFY2(r.out.isEmpty(), qPrintable(describe(all, r)));
    }

    // --name=value is the same as --name value.
    void valuedOptions()
    {
        // verify: --topic=REGEX and --timeout=SECONDS are taken; with half a second the
        // silent clusters are given up on long before the default 15 s.
        {
            const QStringList args{QStringLiteral("verify"), m_profile, QStringLiteral("--topic=ord.*"),
                                   QStringLiteral("--timeout=0.5")};
            QElapsedTimer t;
            t.start();
            const Result r = run(args, 60000);
            QVERIFY2(r.exitCode == 2, qPrintable(describe(args, r)));
            QVERIFY2(!r.err.contains(QStringLiteral("usage")), qPrintable(describe(args, r)));
            QVERIFY2(t.elapsed() < 10000, qPrintable(QStringLiteral("%1 ms\n").arg(t.elapsed()) + describe(args, r)));
        }
        // export-mm2: --output=FILE and --replication-factor=N, then the same spelled apart.
        const QString properties = m_dir.filePath(QStringLiteral("exported.properties"));
        for (const QStringList &options :
             {QStringList{QStringLiteral("--output=") + properties, QStringLiteral("--replication-factor=1")},
              QStringList{QStringLiteral("-o"), properties, QStringLiteral("--replication-factor"),
                          QStringLiteral("1")}}) {
            QFile::remove(properties);
            const QStringList args = QStringList{QStringLiteral("export-mm2"), m_profile} + options;
            const Result r = run(args);
            QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
            QVERIFY2(r.err.contains(QStringLiteral("wrote ") + properties), qPrintable(describe(args, r)));
            QFile f(properties);
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(describe(args, r)));
            const QByteArray data = f.readAll();
            QVERIFY2(data.contains("replication.factor = 1") || data.contains("replication.factor=1"),
                     data.constData());
        }
        // import-mm2 reads that back: --output=DIR.
        const QString dir = m_dir.filePath(QStringLiteral("imported"));
        const QStringList args{QStringLiteral("import-mm2"), QStringLiteral("--output=") + dir, properties};
        const Result r = run(args);
        QVERIFY2(r.exitCode == 0, qPrintable(describe(args, r)));
        QVERIFY2(r.out.contains(QStringLiteral("wrote ") + dir), qPrintable(describe(args, r)));
        QVERIFY2(!QDir(dir).entryList({QStringLiteral("*.mirrorjob")}, QDir::Files).isEmpty(),
                 qPrintable(describe(args, r)));
        // --force=yes is a flag given a value: refused before anything is written.
        const QStringList again{QStringLiteral("import-mm2"), properties, QStringLiteral("--output"), dir,
                                QStringLiteral("--force=yes")};
        const Result refused = run(again);
        QVERIFY2(refused.exitCode == 2 && refused.err.contains(QStringLiteral("unexpected value after '--force'\n")),
                 qPrintable(describe(again, refused)));
    }

    // mirrordesk itself: --help and --version, an unknown option named with the usage.
    void topLevel()
    {
        for (const QString &flag : {QStringLiteral("--help"), QStringLiteral("-h")}) {
            const Result r = run({flag});
            QVERIFY2(r.exitCode == 0, qPrintable(describe({flag}, r)));
            QVERIFY2(r.out.startsWith(QStringLiteral("usage:\n")), qPrintable(describe({flag}, r)));
            for (const QString &o : {QStringLiteral("--sandbox"), QStringLiteral("--new-instance"),
                                     QStringLiteral("--version"), QStringLiteral("COMMAND --help")})
                QVERIFY2(r.out.contains(o), qPrintable(o + QStringLiteral(" missing in ") + describe({flag}, r)));
            for (const QString &c :
                 {QStringLiteral("run"), QStringLiteral("verify"), QStringLiteral("check"), QStringLiteral("reset"),
                  QStringLiteral("import-mm2"), QStringLiteral("export-mm2"), QStringLiteral("lag")})
                QVERIFY2(r.out.contains(QStringLiteral("mirrordesk ") + c + QLatin1Char(' ')),
                         qPrintable(c + QStringLiteral(" missing in ") + describe({flag}, r)));
        }
        {
            const Result r = run({QStringLiteral("--version")});
            QVERIFY2(r.exitCode == 0 && r.out.startsWith(QStringLiteral("mirrordesk ")) &&
                         r.out.endsWith(QLatin1Char('\n')),
                     qPrintable(describe({QStringLiteral("--version")}, r)));
        }
        for (const QStringList &args : {QStringList{QStringLiteral("--bogus")},
                                        QStringList{QStringLiteral("--sandbox"), QStringLiteral("--bogus=1")},
                                        QStringList{QStringLiteral("job.mirrorjob"), QStringLiteral("--bogus")}}) {
            const Result r = run(args);
            QVERIFY2(r.exitCode == 2, qPrintable(describe(args, r)));
            QVERIFY2(r.err.startsWith(QStringLiteral("mirrordesk: unknown option --bogus\nusage:\n")),
                     qPrintable(describe(args, r)));
            QVERIFY2(r.out.isEmpty(), qPrintable(describe(args, r)));
        }
        {
            const QStringList args{QStringLiteral("--version=2")};
            const Result r = run(args);
            QVERIFY2(r.exitCode == 2 &&
                         r.err.contains(QStringLiteral("mirrordesk: unexpected value after '--version'\n")),
                     qPrintable(describe(args, r)));
        }
    }
};

QTEST_GUILESS_MAIN(TestCommandLine)
#include "tst_commandline.moc"

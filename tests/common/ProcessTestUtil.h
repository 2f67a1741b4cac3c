#pragma once

// Running a program to its end inside a test: the real `mirrordesk`
// executable, or one of Apache Kafka's tools. Bounded: a program that does
// not finish in time is killed and reported as exit -1.

#include <QDebug>
#include <QProcess>
#include <QString>
#include <QStringList>

namespace md::test {

struct ExeResult {
    int exitCode = -1; // -1: crashed or timed out
    QString out;
    QString err;
};

inline ExeResult finishProcess(QProcess &p, int timeoutMs)
{
    ExeResult r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
    } else if (p.exitStatus() == QProcess::NormalExit) {
        r.exitCode = p.exitCode();
    }
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    // A crash's report (app/CrashReport: signal and stack) is on stderr, and a
    // failed QVERIFY2 cuts its message at 1 KB: say it whole here.
    if (p.exitStatus() == QProcess::CrashExit)
        qWarning().noquote() << p.program() << "crashed; its stderr:\n" << r.err;
    return r;
}

inline ExeResult runProcess(const QString &program, const QStringList &args, int timeoutMs)
{
    QProcess p;
    p.start(program, args);
    return finishProcess(p, timeoutMs);
}

inline QString mirrordeskExe()
{
    return QStringLiteral(MIRRORDESK_BINARY_DIR "/app/mirrordesk");
}

inline ExeResult runMirrordesk(const QStringList &args, int timeoutMs)
{
    return runProcess(mirrordeskExe(), args, timeoutMs);
}

} // namespace md::test

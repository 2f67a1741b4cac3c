#include "app/AppCommands.h"
#include "app/CommandLine.h"

#include "app/ProfileLoader.h"
#include "app/SignalBridge.h"
#include "engine/mirror/MirrorJob.h"
#include "engine/sandbox/Sandbox.h"
#include "model/monitor/LagStatus.h"
#include "model/profile/JobProfile.h"
#include "model/session/MonitoredJob.h"
#include "model/tables/NumberFormat.h"
#include "service/PrometheusExporter.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QHostAddress>
#include <QTimer>

#include <cstdlib>

namespace md {

namespace {

QString progressLine(const MetricsSnapshot &s)
{
    QString line =
        QStringLiteral("[%1] %2 copied %3 (%4/s, %5/s) lag %6")
            .arg(QString::number(double(s.elapsedMs) / 1000.0, 'f', 0).rightJustified(6), jobStateName(s.state),
                 formatCount(double(s.recordsProduced)), formatCount(s.produceRecordsPerSec),
                 formatBytes(s.produceBytesPerSec), formatCount(double(s.totalLag)));
    // Lag in time (the oldest next record's age) and when the slowest partition catches up.
    if (s.maxLagMs >= 0)
        line += QStringLiteral(" (%1) catch-up %2").arg(lagTimeText(s.maxLagMs), catchUpText(s.catchUpSeconds));
    if (s.retentionAtRisk > 0)
        line += QStringLiteral(" retention-at-risk %1").arg(s.retentionAtRisk);
    if (s.latency.samples > 0)
        line += QStringLiteral(" latency p50 %1 ms p99 %2 ms")
                    .arg(QString::number(s.latency.p50Ms, 'f', 0), QString::number(s.latency.p99Ms, 'f', 0));
    line += QStringLiteral(" partitions %1").arg(s.partitions.size());
    if (s.vanishedRecords > 0)
        line += QStringLiteral(" vanished %1").arg(formatCount(double(s.vanishedRecords)));
    if (s.caughtUp)
        line += QStringLiteral(" caught-up");
    return line;
}

} // namespace

int runRunCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    CommandLine cli(
        QStringLiteral("run"),
        QStringLiteral("FILE.mirrorjob [--until-caught-up] [--sandbox] [--metrics-port N [--metrics-address ADDR]] "
                       "[--instance-id NAME]"));
    cli.setDescription(QStringLiteral("Runs a mirror job headless until SIGINT/SIGTERM (or caught up)."));
    const QCommandLineOption untilCaughtUpOption(
        QStringLiteral("until-caught-up"),
        QStringLiteral("Exit 0 once the whole job (every instance's partitions) is caught up."));
    const QCommandLineOption sandboxOption(QStringLiteral("sandbox"),
                                           QStringLiteral("Run against two embedded demo clusters."));
    const QCommandLineOption metricsPortOption(QStringLiteral("metrics-port"),
                                               QStringLiteral("Serve Prometheus metrics on 127.0.0.1:N/metrics."),
                                               QStringLiteral("N"));
    const QCommandLineOption metricsAddressOption(
        QStringLiteral("metrics-address"),
        QStringLiteral("The address --metrics-port listens on (default 127.0.0.1; 0.0.0.0 for every interface, so "
                       "that a Prometheus on another host can scrape)."),
        QStringLiteral("ADDR"), QStringLiteral("127.0.0.1"));
    const QCommandLineOption instanceIdOption(
        QStringLiteral("instance-id"),
        QStringLiteral("Static group membership (group.instance.id): a restarted instance gets its partitions "
                       "back without a rebalance. Unique per running instance of the profile."),
        QStringLiteral("NAME"));
    cli.addOptions({untilCaughtUpOption, sandboxOption, metricsPortOption, metricsAddressOption, instanceIdOption});
    cli.setArguments(QStringLiteral("profile"), 1, 1);
    if (const std::optional<int> exitCode = cli.parse(args, out, err))
        return *exitCode;
    const bool untilCaughtUp = cli.isSet(untilCaughtUpOption);
    const bool sandboxMode = cli.isSet(sandboxOption);
    int metricsPort = 0;
    if (cli.isSet(metricsPortOption)) {
        bool ok = false;
        metricsPort = cli.value(metricsPortOption).toInt(&ok);
        if (!ok || metricsPort <= 0 || metricsPort > 65535)
            return cli.usageError(err, QStringLiteral("--metrics-port needs a port number from 1 to 65535"));
    }
    QHostAddress metricsAddress;
    if (!metricsAddress.setAddress(cli.value(metricsAddressOption)))
        return cli.usageError(err, QStringLiteral("--metrics-address: \"%1\" is not an IPv4 or IPv6 address")
                                       .arg(cli.value(metricsAddressOption)));
    if (cli.isSet(metricsAddressOption) && !cli.isSet(metricsPortOption))
        return cli.usageError(err, QStringLiteral("--metrics-address needs --metrics-port"));
    QString instanceId;
    if (cli.isSet(instanceIdOption)) {
        instanceId = cli.value(instanceIdOption).trimmed();
        if (instanceId.isEmpty())
            return cli.usageError(err, QStringLiteral("--instance-id needs a name"));
    }
    const QStringList files = cli.arguments();
    const QString file = files.first();

    std::unique_ptr<SandboxClusters> sandbox;
    if (sandboxMode) {
        QString error;
        sandbox = SandboxClusters::start(&error);
        if (!sandbox) {
            err << "mirrordesk run: " << error << Qt::endl;
            return 1;
        }
    }
    std::optional<MirrorJobSpec> spec = loadJobSpec(file, sandbox.get(), err);
    if (!spec)
        return 2;
    if (untilCaughtUp)
        spec->stop = StopCondition::CaughtUp;
    if (!instanceId.isEmpty())
        spec->instanceId = instanceId;
    if (sandbox)
        sandbox->prepareTarget(*spec);

    std::unique_ptr<PrometheusExporter> metrics;
    if (metricsPort > 0) {
        QString error;
        metrics = std::make_unique<PrometheusExporter>();
        if (!metrics->listen(quint16(metricsPort), &error, metricsAddress)) {
            err << "mirrordesk run: " << error << Qt::endl;
            return 1;
        }
        const QString host = metricsAddress.protocol() == QAbstractSocket::IPv6Protocol
                                 ? QLatin1Char('[') + metricsAddress.toString() + QLatin1Char(']')
                                 : metricsAddress.toString();
        out << "serving Prometheus metrics on http://" << host << ':' << metricsPort << "/metrics" << Qt::endl;
    }

    // The same owner of the job's state as the window's (MonitoredJob), with the short
    // history a progress line and the lag status need.
    MonitoredJob monitored(new MirrorJob(*spec), file, MonitoredJob::statusOnlyConfig());
    MirrorJob &job = *monitored.job();
    int exitCode = 0;
    if (metrics) {
        QObject::connect(&monitored, &MonitoredJob::snapshotAdded, &monitored,
                         [&](const MetricsSnapshot &s) { metrics->update(s, monitored.status()); });
    }
    QObject::connect(&job, &MirrorJob::eventRaised, &job, [&](const JobEvent &e) {
        const char *level = e.severity == JobEvent::Severity::Error     ? "error"
                            : e.severity == JobEvent::Severity::Warning ? "warning"
                                                                        : "info";
        err << level << ": " << e.text << Qt::endl;
    });
    QObject::connect(&job, &MirrorJob::finished, &job, [&](bool ok, const QString &error) {
        const MetricStore &store = monitored.store();
        if (!store.isEmpty())
            out << progressLine(store.latest()) << Qt::endl;
        if (ok) {
            out << "stopped cleanly: " << store.latest().recordsProduced << " records copied" << Qt::endl;
        } else {
            err << "mirrordesk run: job failed: " << error << Qt::endl;
            exitCode = 1;
        }
        QCoreApplication::exit(exitCode);
    });

    QTimer progress;
    QObject::connect(&progress, &QTimer::timeout, &job, [&] {
        if (!monitored.store().isEmpty())
            out << progressLine(monitored.store().latest()) << Qt::endl;
    });
    progress.start(1000);

    int signals = 0;
    SignalBridge bridge([&](int) {
        if (++signals == 1) {
            err << "stopping: flushing and committing (signal again to abort)" << Qt::endl;
            job.stop();
        } else {
            err << "aborted before a clean stop; the next run resumes from the last commit" << Qt::endl;
            std::_Exit(130);
        }
    });

    out << "mirroring " << spec->name;
    if (!spec->instanceId.isEmpty())
        out << " as instance " << spec->instanceId;
    out << ": " << spec->source.bootstrap << " -> " << spec->target.bootstrap << " (" << deliveryName(spec->delivery)
        << ')' << Qt::endl;
    job.start();
    return QCoreApplication::exec() == 0 ? exitCode : 1;
}

} // namespace md

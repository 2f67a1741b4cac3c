#pragma once

// Helpers shared by the Prometheus exporter tests (tst_prometheus,
// tst_prometheushttp): a strict reader of the text exposition format 0.0.4,
// HTTP over a raw loopback socket, and a snapshot with every figure set.

#include "engine/mirror/MetricsSnapshot.h"

#include <QByteArray>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QHash>
#include <QHostAddress>
#include <QList>
#include <QMap>
#include <QRegularExpression>
#include <QSet>
#include <QString>
#include <QStringList>
#include <QTcpSocket>
#include <QTest>

#include <cmath>
#include <optional>

namespace md::test {

// ---- a strict exposition parser -------------------------------------------------------------

struct Sample {
    QString name;
    QMap<QString, QString> labels;
    double value = 0;
};

struct Exposition {
    QHash<QString, QString> types; // family -> type
    QHash<QString, QString> helps;
    QList<Sample> samples;
    QString error; // empty when the whole text was valid

    QList<Sample> find(const QString &name, const QMap<QString, QString> &labels = {}) const
    {
        QList<Sample> out;
        for (const Sample &s : samples) {
            if (s.name != name)
                continue;
            bool match = true;
            for (auto it = labels.cbegin(); it != labels.cend(); ++it)
                match = match && s.labels.value(it.key()) == it.value() && s.labels.contains(it.key());
            if (match)
                out.append(s);
        }
        return out;
    }
    std::optional<double> value(const QString &name, const QMap<QString, QString> &labels) const
    {
        const auto found = find(name, labels);
        if (found.size() != 1)
            return std::nullopt;
        return found.first().value;
    }
};

inline bool parseValue(const QString &text, double *out)
{
    if (text == QLatin1String("NaN")) {
        *out = std::nan("");
        return true;
    }
    if (text == QLatin1String("+Inf") || text == QLatin1String("-Inf")) {
        *out = text.startsWith(QLatin1Char('+')) ? INFINITY : -INFINITY;
        return true;
    }
    bool ok = false;
    *out = text.toDouble(&ok);
    return ok;
}

inline Exposition parseExposition(const QByteArray &body)
{
    Exposition e;
    static const QRegularExpression metricName(QStringLiteral("^[a-zA-Z_:][a-zA-Z0-9_:]*$"));
    static const QRegularExpression labelName(QStringLiteral("^[a-zA-Z_][a-zA-Z0-9_]*$"));
    static const QStringList knownTypes{QStringLiteral("counter"), QStringLiteral("gauge"), QStringLiteral("histogram"),
                                        QStringLiteral("summary"), QStringLiteral("untyped")};
    if (!body.isEmpty() && !body.endsWith('\n')) {
        e.error = QStringLiteral("text does not end with a newline");
        return e;
    }
    const QString text = QString::fromUtf8(body);
    const QStringList lines = text.split(QLatin1Char('\n'));
    QSet<QString> finishedFamilies;
    QString currentFamily;
    QSet<QString> seenSeries;
    auto familyOf = [&](const QString &name) {
        for (const char *suffix : {"_sum", "_count", "_bucket"}) {
            const QString s = QString::fromLatin1(suffix);
            if (name.endsWith(s) && e.types.contains(name.chopped(s.size())))
                return name.chopped(s.size());
        }
        return name;
    };
    for (qsizetype n = 0; n < lines.size(); ++n) {
        const QString &line = lines[n];
        const QString where = QStringLiteral("line %1: ").arg(n + 1);
        if (line.isEmpty())
            continue;
        if (line.startsWith(QLatin1Char('#'))) {
            const QStringList parts = line.split(QLatin1Char(' '));
            if (parts.size() >= 3 && (parts[1] == QLatin1String("HELP") || parts[1] == QLatin1String("TYPE"))) {
                const QString &name = parts[2];
                if (!metricName.match(name).hasMatch())
                    return e.error = where + QStringLiteral("bad metric name ") + name, e;
                if (parts[1] == QLatin1String("TYPE")) {
                    if (parts.size() != 4 || !knownTypes.contains(parts[3]))
                        return e.error = where + QStringLiteral("bad TYPE line"), e;
                    if (e.types.contains(name))
                        return e.error = where + QStringLiteral("second TYPE for ") + name, e;
                    if (finishedFamilies.contains(name) || e.find(name).size() > 0)
                        return e.error = where + QStringLiteral("TYPE after samples of ") + name, e;
                    e.types.insert(name, parts[3]);
                } else {
                    if (e.helps.contains(name))
                        return e.error = where + QStringLiteral("second HELP for ") + name, e;
                    e.helps.insert(name, line.section(QLatin1Char(' '), 3));
                }
            }
            continue; // other comments are allowed
        }
        // name{label="value",...} value [timestamp]
        Sample s;
        qsizetype i = 0;
        while (i < line.size() && line[i] != QLatin1Char('{') && line[i] != QLatin1Char(' '))
            ++i;
        s.name = line.left(i);
        if (!metricName.match(s.name).hasMatch())
            return e.error = where + QStringLiteral("bad metric name ") + s.name, e;
        if (i < line.size() && line[i] == QLatin1Char('{')) {
            ++i;
            while (true) {
                if (i < line.size() && line[i] == QLatin1Char('}')) {
                    ++i;
                    break;
                }
                const qsizetype eq = line.indexOf(QLatin1Char('='), i);
                if (eq < 0)
                    return e.error = where + QStringLiteral("label without '='"), e;
                const QString lname = line.mid(i, eq - i);
                if (!labelName.match(lname).hasMatch())
                    return e.error = where + QStringLiteral("bad label name ") + lname, e;
                i = eq + 1;
                if (i >= line.size() || line[i] != QLatin1Char('"'))
                    return e.error = where + QStringLiteral("label value not quoted"), e;
                ++i;
                QString value;
                bool closed = false;
                while (i < line.size()) {
                    const QChar c = line[i++];
                    if (c == QLatin1Char('\\')) {
                        if (i >= line.size())
                            return e.error = where + QStringLiteral("dangling escape"), e;
                        const QChar x = line[i++];
                        if (x == QLatin1Char('\\'))
                            value += QLatin1Char('\\');
                        else if (x == QLatin1Char('"'))
                            value += QLatin1Char('"');
                        else if (x == QLatin1Char('n'))
                            value += QLatin1Char('\n');
                        else
                            return e.error = where + QStringLiteral("bad escape \\") + x, e;
                    } else if (c == QLatin1Char('"')) {
                        closed = true;
                        break;
                    } else {
                        value += c;
                    }
                }
                if (!closed)
                    return e.error = where + QStringLiteral("unterminated label value"), e;
                if (s.labels.contains(lname))
                    return e.error = where + QStringLiteral("duplicate label ") + lname, e;
                s.labels.insert(lname, value);
                if (i < line.size() && line[i] == QLatin1Char(','))
                    ++i;
                else if (i >= line.size() || line[i] != QLatin1Char('}'))
                    return e.error = where + QStringLiteral("expected ',' or '}'"), e;
            }
        }
        if (i >= line.size() || line[i] != QLatin1Char(' '))
            return e.error = where + QStringLiteral("no value"), e;
        const QStringList rest = line.mid(i + 1).split(QLatin1Char(' '));
        if (rest.isEmpty() || rest.size() > 2 || !parseValue(rest[0], &s.value))
            return e.error = where + QStringLiteral("bad value '") + line.mid(i + 1) + QLatin1Char('\''), e;
        const QString family = familyOf(s.name);
        if (!e.types.contains(family))
            return e.error = where + QStringLiteral("sample before its TYPE: ") + s.name, e;
        if (family != currentFamily) {
            if (finishedFamilies.contains(family))
                return e.error = where + QStringLiteral("family not contiguous: ") + family, e;
            if (!currentFamily.isEmpty())
                finishedFamilies.insert(currentFamily);
            currentFamily = family;
        }
        QString seriesId = s.name;
        for (auto it = s.labels.cbegin(); it != s.labels.cend(); ++it)
            seriesId += QLatin1Char('\x1f') + it.key() + QLatin1Char('=') + it.value();
        if (seenSeries.contains(seriesId))
            return e.error = where + QStringLiteral("duplicate series ") + s.name, e;
        seenSeries.insert(seriesId);
        if (e.types.value(family) == QLatin1String("counter") && !s.name.endsWith(QLatin1String("_total")))
            return e.error = where + QStringLiteral("counter not named *_total: ") + s.name, e;
        e.samples.append(s);
    }
    return e;
}

// ---- HTTP over a raw socket, while the (same-thread) server keeps serving -------------------

struct Response {
    int code = 0;
    QHash<QByteArray, QByteArray> headers; // lower-case names
    QByteArray body;
    QByteArray raw;
};

inline Response parseResponse(const QByteArray &raw)
{
    Response r;
    r.raw = raw;
    const qsizetype headEnd = raw.indexOf("\r\n\r\n");
    if (headEnd < 0)
        return r;
    const QList<QByteArray> lines = raw.left(headEnd).split('\n');
    const QList<QByteArray> status = lines.value(0).trimmed().split(' ');
    r.code = status.value(1).toInt();
    for (qsizetype i = 1; i < lines.size(); ++i) {
        const qsizetype colon = lines[i].indexOf(':');
        if (colon > 0)
            r.headers.insert(lines[i].left(colon).trimmed().toLower(), lines[i].mid(colon + 1).trimmed());
    }
    r.body = raw.mid(headEnd + 4);
    return r;
}

inline Response exchange(quint16 port, const QList<QByteArray> &chunks, int pauseMs = 0,
                         const QHostAddress &host = QHostAddress(QHostAddress::LocalHost))
{
    QTcpSocket socket;
    socket.connectToHost(host, port);
    QDeadlineTimer deadline(10000);
    while (socket.state() != QAbstractSocket::ConnectedState && !deadline.hasExpired())
        QTest::qWait(2);
    for (const QByteArray &chunk : chunks) {
        socket.write(chunk);
        socket.flush();
        if (pauseMs > 0)
            QTest::qWait(pauseMs);
    }
    QByteArray data;
    while (socket.state() != QAbstractSocket::UnconnectedState && !deadline.hasExpired()) {
        QTest::qWait(2);
        data += socket.readAll();
    }
    data += socket.readAll();
    return parseResponse(data);
}

inline Response get(quint16 port, const QByteArray &path)
{
    return exchange(port, {"GET " + path + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/plain\r\n\r\n"});
}

inline MetricsSnapshot sampleSnapshot(const QString &job)
{
    MetricsSnapshot s;
    s.jobName = job;
    s.time = QDateTime::currentDateTimeUtc();
    s.state = JobState::Running;
    s.recordsConsumed = 1500;
    s.recordsProduced = 1400;
    s.totalLag = 130;
    s.lagTimeMs = 2500;
    s.inFlight = 100;
    s.latency.p50Ms = 12.5;
    s.latency.p99Ms = 240.25;
    PartitionMetrics a;
    a.topic = QStringLiteral("orders");
    a.targetTopic = QStringLiteral("eu.orders");
    a.partition = 0;
    a.endOffset = 1000;
    a.nextOffset = 900;
    a.committedOffset = 850;
    a.lag = 100;
    a.records = 900;
    a.bytes = 90000;
    a.vanishedRecords = 12;
    PartitionMetrics b = a;
    b.partition = 1;
    b.endOffset = 530;
    b.nextOffset = 500;
    b.committedOffset = -1; // never committed
    b.lag = 30;
    b.records = 500;
    b.bytes = 51234;
    b.vanishedRecords = 0;
    s.vanishedRecords = 12;
    s.partitions = {b, a};
    return s;
}

using Labels = QMap<QString, QString>;

} // namespace md::test

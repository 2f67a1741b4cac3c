#pragma once

// The mm2.properties importer's class, shared by its feature files: Mm2Import.cpp
// (clusters, flows, the job each flow becomes, leftovers) and Mm2ImportSide.cpp (one
// cluster's connection and client settings). Internal to the model.

#include "model/mm2/Mm2Properties.h"
#include "model/mm2/Mm2Support.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QMap>
#include <QPair>
#include <QSet>
#include <QString>
#include <QStringList>

#include <optional>

namespace md::mm2 {

struct Entry {
    QString value;
    int line = 0;
};

class Importer final {
public:
    Importer(const QByteArray &data, const QString &fileName);

    Mm2ImportResult run();

private:
    QString name() const { return m_fileName.isEmpty() ? QStringLiteral("mm2.properties") : m_fileName; }

    std::optional<Entry> take(const QString &key)
    {
        const auto it = m_entries.constFind(key);
        if (it == m_entries.constEnd())
            return std::nullopt;
        m_used.insert(key);
        return *it;
    }

    void unmapped(const QString &key, const QString &reason)
    {
        const auto it = m_entries.constFind(key);
        if (it == m_entries.constEnd() || m_explained.contains(key))
            return;
        m_explained.insert(key);
        m_result.unmapped << Mm2Unmapped{it->line, key, reason};
    }

    // A flow setting: "A->B.key", else the top-level "key".
    std::optional<Entry> flowValue(const QString &a, const QString &b, const QString &key)
    {
        if (auto e = take(a + QStringLiteral("->") + b + QLatin1Char('.') + key))
            return e;
        return take(key);
    }
    QString flowKey(const QString &a, const QString &b, const QString &key) const
    {
        const QString f = a + QStringLiteral("->") + b + QLatin1Char('.') + key;
        return m_entries.contains(f) ? f : key;
    }

    // A cluster setting: "A.key", else the top-level "key" (MM2 applies
    // top-level client settings to every cluster).
    std::optional<Entry> clusterValue(const QString &alias, const QString &key)
    {
        if (auto e = take(alias + QLatin1Char('.') + key))
            return e;
        return take(key);
    }
    QString clusterKey(const QString &alias, const QString &key) const
    {
        const QString c = alias + QLatin1Char('.') + key;
        return m_entries.contains(c) ? c : key;
    }

    // The password of a JAAS line or an ssl password: a ${env:} reference is
    // kept, anything else becomes a new environment variable.
    QString secret(const QString &value, const QString &variable, const QString &description, int line);

    void side(const QString &alias, ProfileSide *s, bool isSource);

    void clientProperty(const QString &key, const QString &name, const QString &value, QMap<QString, QString> *target);

    Mm2Flow flow(const QString &a, const QString &b);

    // Exactly-once (KIP-618): MM2's workers for flows into B run transactions
    // with "B.exactly.once.source.support = enabled"; a connector may insist
    // with "exactly.once.support = required" (MM2 then refuses to run it without).
    void delivery(const QString &a, const QString &b, JobProfile *p);

    // Consumer groups (MM2's MirrorCheckpointConnector): groups / groups.exclude
    // become groups.include / groups.exclude, sync.group.offsets.* syncGroupOffsets,
    // emit.checkpoints.* checkpoints, their intervals groupSyncIntervalMs; what
    // the file leaves out takes MM2's defaults, said in a note.
    void groups(const QString &a, const QString &b, JobProfile *p);

    // ACL sync (MM2's MirrorSourceConnector): sync.topic.acls.enabled (true by
    // default in MM2) becomes acls.sync in safe mode (MM2's rules), and
    // sync.topic.acls.interval.seconds (default 600) acls.intervalMs; what the
    // file leaves out takes MM2's defaults, said in a note.
    void acls(const QString &a, const QString &b, JobProfile *p);

    // The regexes of one of MM2's group lists; empty items are dropped and
    // invalid ones left out, each described in *invalid.
    static QStringList groupRegexes(const QString &value, QStringList *invalid);

    // A positive number of seconds from a flow setting; anything else is listed
    // (MM2 then uses its default, mm2Default seconds).
    std::optional<qint64> flowSeconds(const QString &a, const QString &b, const QString &key, qint64 mm2Default);

    // Every key no flow used gets a reason; nothing is dropped silently.
    void explainLeftovers();

    QString m_fileName;
    QHash<QString, Entry> m_entries;
    QSet<QString> m_used;
    QSet<QString> m_explained;
    QHash<QString, QString> m_roleReason; // client overrides for the side MirrorDesk does not run
    QStringList m_clusters;
    QList<QPair<QString, QString>> m_flows;
    Mm2ImportResult m_result;
    RdKafkaPropertyCheck m_rdkafka; // one librdkafka configuration for every client property checked
};

} // namespace md::mm2

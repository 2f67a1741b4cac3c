#include "model/tables/PartitionTableModel.h"

#include "model/tables/NumberFormat.h"

#include <QColor>

#include <algorithm>
#include <cmath>

namespace md {

namespace {

PartitionKey keyOf(const MetricStore::PartitionRow &r)
{
    return {r.metrics.topic, r.metrics.partition};
}

PartitionKey keyOf(const OtherMemberPartition &p)
{
    return {p.metrics.topic, p.metrics.partition};
}

template <typename T> void sortUnique(QList<T> &rows)
{
    std::sort(rows.begin(), rows.end(), [](const T &a, const T &b) { return keyOf(a) < keyOf(b); });
    // A duplicate key would make the row bookkeeping ambiguous; keep one.
    rows.erase(std::unique(rows.begin(), rows.end(), [](const T &a, const T &b) { return keyOf(a) == keyOf(b); }),
               rows.end());
}

const QString kUnknown = QStringLiteral("\u2014"); // em dash: unknown, never shown as 0

QVariant offsetOrUnknown(qint64 v)
{
    return v < 0 ? QVariant(kUnknown) : QVariant(qlonglong(v));
}

} // namespace

PartitionTableModel::PartitionTableModel(QObject *parent) : MergingTableModel(parent)
{
}

PartitionTableModel::~PartitionTableModel() = default;

namespace {

// Shown in whole seconds: a change below that is not a change.
bool sameCatchUp(double a, double b)
{
    return a == b || (a >= 0 && b >= 0 && std::ceil(a) == std::ceil(b));
}

QString lagTimeTip(const PartitionMetrics &p)
{
    if (p.lag == 0)
        return PartitionTableModel::tr("Caught up.");
    const QString type =
        p.timestampType.isEmpty() ? PartitionTableModel::tr("unknown (not read yet)") : p.timestampType;
    QString tip = PartitionTableModel::tr("Now minus the timestamp of the next record (offset %1), timestamp type %2.")
                      .arg(p.nextOffset >= 0        ? p.nextOffset
                           : p.committedOffset >= 0 ? p.committedOffset
                                                    : p.logStartOffset)
                      .arg(type);
    if (p.timestampType == QLatin1String("CreateTime"))
        tip += PartitionTableModel::tr(" CreateTime is set by the producer.");
    if (p.retentionAtRisk)
        tip += PartitionTableModel::tr("\nAbout to be removed by the source's retention (retention.ms %1).")
                   .arg(p.retentionMs);
    return tip;
}

} // namespace

bool PartitionTableModel::sameDisplay(const Row &ra, const Row &rb)
{
    const MetricStore::PartitionRow &a = ra.data;
    const MetricStore::PartitionRow &b = rb.data;
    const PartitionMetrics &x = a.metrics;
    const PartitionMetrics &y = b.metrics;
    // Rates are shown with one decimal: a change below that is not a change.
    const bool sameRate =
        (a.recordsPerSec < 0 && b.recordsPerSec < 0) || std::abs(a.recordsPerSec - b.recordsPerSec) < 0.05;
    return x.targetTopic == y.targetTopic && x.endOffset == y.endOffset && x.nextOffset == y.nextOffset &&
           x.committedOffset == y.committedOffset && x.lag == y.lag && sameRate && a.status == b.status &&
           x.lagMs / 1000 == y.lagMs / 1000 && sameCatchUp(x.catchUpSeconds, y.catchUpSeconds) &&
           x.retentionAtRisk == y.retentionAtRisk && x.timestampType == y.timestampType && ra.mine == rb.mine &&
           ra.owner == rb.owner && ra.ownerDetail == rb.ownerDetail;
}

void PartitionTableModel::setRows(QList<MetricStore::PartitionRow> rows)
{
    sortUnique(rows);
    m_own = std::move(rows);
    apply(merged());
}

void PartitionTableModel::setOtherMembers(QList<OtherMemberPartition> partitions)
{
    sortUnique(partitions);
    m_others = std::move(partitions);
    apply(merged());
}

QList<PartitionTableModel::Row> PartitionTableModel::merged() const
{
    // Both lists are sorted: one merge; this window's row wins a key both have (the group's
    // description lags behind a rebalance the snapshot already shows).
    QList<Row> out;
    out.reserve(m_own.size() + m_others.size());
    qsizetype i = 0;
    qsizetype j = 0;
    while (i < m_own.size() || j < m_others.size()) {
        const bool takeOther = i >= m_own.size() || (j < m_others.size() && keyOf(m_others[j]) < keyOf(m_own[i]));
        if (!takeOther) {
            if (j < m_others.size() && keyOf(m_others[j]) == keyOf(m_own[i]))
                ++j;
            out.append(Row{m_own[i++], true, {}, {}});
            continue;
        }
        const OtherMemberPartition &o = m_others[j++];
        MetricStore::PartitionRow row;
        row.metrics = o.metrics;
        row.recordsPerSec = -1;
        out.append(Row{row, false, o.owner, o.ownerDetail});
    }
    return out;
}

void PartitionTableModel::apply(const QList<Row> &rows)
{
    mergeSortedRows(
        m_rows, rows, [](const Row &r) { return keyOf(r.data); }, &PartitionTableModel::sameDisplay);
}

void PartitionTableModel::applySnapshot(const MetricsSnapshot &snapshot,
                                        const QHash<PartitionKey, PartitionLagStatus> &statuses)
{
    QHash<PartitionKey, qint64> previous;
    for (const PartitionMetrics &p : std::as_const(m_previous.partitions))
        previous.insert({p.topic, p.partition}, p.records);
    const double dtSec = double(snapshot.elapsedMs - m_previous.elapsedMs) / 1000.0;
    const bool havePrevious = !m_previous.partitions.isEmpty() || m_previous.elapsedMs > 0;

    QList<MetricStore::PartitionRow> rows;
    rows.reserve(snapshot.partitions.size());
    for (const PartitionMetrics &p : snapshot.partitions) {
        const PartitionKey key{p.topic, p.partition};
        MetricStore::PartitionRow row;
        row.metrics = p;
        const auto prev = previous.constFind(key);
        if (havePrevious && dtSec > 0 && prev != previous.cend() && p.records >= *prev)
            row.recordsPerSec = double(p.records - *prev) / dtSec;
        row.status = statuses.value(key, PartitionLagStatus::Ok);
        rows.append(row);
    }
    m_previous = snapshot;
    setRows(std::move(rows));
}

void PartitionTableModel::clear()
{
    m_previous = MetricsSnapshot{};
    m_own.clear();
    m_others.clear();
    if (m_rows.isEmpty())
        return;
    beginRemoveRows({}, 0, int(m_rows.size()) - 1);
    m_rows.clear();
    endRemoveRows();
}

PartitionKey PartitionTableModel::keyAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? keyOf(m_rows[row].data) : PartitionKey{};
}

int PartitionTableModel::rowOf(const PartitionKey &key) const
{
    const auto it = std::lower_bound(m_rows.cbegin(), m_rows.cend(), key,
                                     [](const Row &r, const PartitionKey &k) { return keyOf(r.data) < k; });
    return it != m_rows.cend() && keyOf(it->data) == key ? int(it - m_rows.cbegin()) : -1;
}

int PartitionTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int PartitionTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant PartitionTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &shown = m_rows[index.row()];
    const MetricStore::PartitionRow &row = shown.data;
    const PartitionMetrics &p = row.metrics;
    const auto column = Column(index.column());
    const bool mine = shown.mine;

    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case TopicColumn: return p.topic;
        case PartitionColumn: return p.partition;
        case TargetTopicColumn: return p.targetTopic;
        case EndOffsetColumn: return offsetOrUnknown(p.endOffset);
        case MirroredOffsetColumn: return offsetOrUnknown(p.nextOffset);
        case CommittedOffsetColumn:
            return p.committedOffset < 0 ? QVariant(tr("none")) : QVariant(qlonglong(p.committedOffset));
        case LagColumn: return offsetOrUnknown(p.lag);
        case LagTimeColumn: return p.lagMs < 0 ? kUnknown : lagTimeText(p.lagMs);
        case CatchUpColumn: return mine ? catchUpText(p.catchUpSeconds) : kUnknown;
        case RateColumn: return row.recordsPerSec < 0 ? kUnknown : QString::number(row.recordsPerSec, 'f', 1);
        case StatusColumn: return mine ? partitionLagStatusName(row.status) : kUnknown;
        case OwnerColumn: return mine ? tr("this window") : shown.owner;
        case ColumnCount: break;
        }
        break;
    case SortRole:
        switch (column) {
        case TopicColumn: return p.topic;
        case PartitionColumn: return p.partition;
        case TargetTopicColumn: return p.targetTopic;
        case EndOffsetColumn: return qlonglong(p.endOffset);
        case MirroredOffsetColumn: return qlonglong(p.nextOffset);
        case CommittedOffsetColumn: return qlonglong(p.committedOffset);
        case LagColumn: return qlonglong(p.lag);
        case LagTimeColumn: return qlonglong(p.lagMs);
        case CatchUpColumn: return p.catchUpSeconds;
        case RateColumn: return row.recordsPerSec;
        case StatusColumn: return mine ? int(row.status) : -1;
        case OwnerColumn: return mine ? QString() : shown.owner; // this window's first
        case ColumnCount: break;
        }
        break;
    case StatusRole: return mine ? QVariant(int(row.status)) : QVariant();
    case OwnedHereRole: return mine;
    case Qt::TextAlignmentRole:
        if (column == TopicColumn || column == TargetTopicColumn || column == StatusColumn || column == OwnerColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    case Qt::ForegroundRole:
        // Mid-tone colours read on light and dark palettes alike.
        if (!mine)
            return QColor(0x80, 0x80, 0x80); // another member's: for reference
        if (column == LagTimeColumn && p.retentionAtRisk)
            return QColor(0xd9, 0x36, 0x36);
        if (column == StatusColumn) {
            switch (rollUp(row.status)) {
            case JobLagStatus::Ok: return {};
            case JobLagStatus::Warn: return QColor(0xd0, 0x84, 0x00);
            case JobLagStatus::Err: return QColor(0xd9, 0x36, 0x36);
            }
        }
        break;
    case Qt::ToolTipRole:
        if (column == OwnerColumn) {
            return mine ? tr("This window's job copies this partition.")
                        : tr("Another member of the job's consumer group copies this partition:\n%1")
                              .arg(shown.ownerDetail);
        }
        if (!mine && column == StatusColumn)
            return tr("Another member copies this partition; its lag status is in that member's monitor.");
        if (column == StatusColumn) {
            switch (row.status) {
            case PartitionLagStatus::Ok: return tr("Keeping up, or catching up.");
            case PartitionLagStatus::Warn: return tr("Mirroring, but the lag grew across the whole window.");
            case PartitionLagStatus::Stall:
                return tr("The position has not moved across the window while there is lag.");
            case PartitionLagStatus::Stop: return tr("No progress reported for longer than the window.");
            case PartitionLagStatus::Rewind: return tr("The position went backwards.");
            }
        }
        if (column == LagTimeColumn)
            return lagTimeTip(p);
        if (column == CatchUpColumn)
            return tr("The partition's lag over its smoothed net drain rate; \"never\" while it does not shrink.");
        if (column == CommittedOffsetColumn && p.committedOffset < 0)
            return tr("The consumer group has no committed offset for this partition.");
        break;
    default: break;
    }
    return {};
}

QVariant PartitionTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (Column(section)) {
    case TopicColumn: return tr("Topic");
    case PartitionColumn: return tr("Partition");
    case TargetTopicColumn: return tr("Target topic");
    case EndOffsetColumn: return tr("End offset");
    case MirroredOffsetColumn: return tr("Mirrored offset");
    case CommittedOffsetColumn: return tr("Committed");
    case LagColumn: return tr("Lag");
    case LagTimeColumn: return tr("Lag (time)");
    case CatchUpColumn: return tr("Catch-up");
    case RateColumn: return tr("Records/s");
    case StatusColumn: return tr("Status");
    case OwnerColumn: return tr("Owner");
    case ColumnCount: break;
    }
    return {};
}

QString memberDisplayName(const GroupMember &member)
{
    if (!member.groupInstanceId.isEmpty())
        return member.groupInstanceId;
    QString host = member.host;
    if (host.startsWith(QLatin1Char('/')))
        host.remove(0, 1); // the broker writes "/10.0.0.5"
    if (!member.clientId.isEmpty() && !host.isEmpty())
        return member.clientId + QStringLiteral(" @ ") + host;
    if (!host.isEmpty())
        return host;
    return member.clientId.isEmpty() ? member.memberId : member.clientId;
}

QList<OtherMemberPartition> partitionsOfOtherMembers(const ConsumerGroupInfo &group,
                                                     const QList<PartitionMetrics> &groupPartitions,
                                                     const QString &selfMemberId, const QString &selfInstanceId)
{
    QHash<PartitionKey, PartitionMetrics> figures;
    figures.reserve(groupPartitions.size());
    for (const PartitionMetrics &p : groupPartitions)
        figures.insert({p.topic, p.partition}, p);
    QList<OtherMemberPartition> out;
    for (const GroupMember &m : group.members) {
        const bool self = (!selfMemberId.isEmpty() && m.memberId == selfMemberId) ||
                          (!selfInstanceId.isEmpty() && m.groupInstanceId == selfInstanceId);
        if (self)
            continue;
        QStringList detail{QObject::tr("member %1").arg(m.memberId)};
        if (!m.groupInstanceId.isEmpty())
            detail.append(QObject::tr("instance %1").arg(m.groupInstanceId));
        if (!m.clientId.isEmpty())
            detail.append(QObject::tr("client %1").arg(m.clientId));
        if (!m.host.isEmpty())
            detail.append(QObject::tr("host %1").arg(m.host));
        const QString name = memberDisplayName(m);
        const QString details = detail.join(QLatin1Char('\n'));
        for (const TopicPartitionRef &tp : m.assignment) {
            OtherMemberPartition o;
            o.metrics = figures.value({tp.topic, tp.partition});
            o.metrics.topic = tp.topic;
            o.metrics.partition = tp.partition;
            o.metrics.nextOffset = -1; // that member's position is not known here
            o.owner = name;
            o.ownerDetail = details;
            out.append(std::move(o));
        }
    }
    std::sort(out.begin(), out.end(),
              [](const OtherMemberPartition &a, const OtherMemberPartition &b) { return keyOf(a) < keyOf(b); });
    return out;
}

} // namespace md

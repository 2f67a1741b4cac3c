#include "model/tables/ProgressTableModel.h"

#include <QColor>
#include <QLocale>

namespace md {

namespace {

const QColor kGrey(0x75, 0x75, 0x75);
const QColor kWarn(0x8a, 0x5a, 0x00);

QString rowTip(const PartitionStart &p)
{
    QStringList lines;
    lines << p.topic + QLatin1Char('/') + QString::number(p.partition);
    lines << p.describe();
    lines << QObject::tr("log start %1, end %2").arg(formatOffset(p.logStart), formatOffset(p.end));
    lines << (p.committed < 0 ? QObject::tr("no committed offset in the job's group")
                              : QObject::tr("committed %1").arg(formatOffset(p.committed)));
    if (const QString vanished = p.vanishedText(); !vanished.isEmpty())
        lines << vanished;
    else if (p.reason == StartReason::CommittedPastEnd)
        lines << QObject::tr("the committed offset is past the end: the topic was recreated or truncated");
    return lines.join(QLatin1Char('\n'));
}

} // namespace

QString formatOffset(qint64 value)
{
    // The C locale groups nothing; English writes 1,234 like describe().
    static const QLocale english(QLocale::English, QLocale::UnitedStates);
    return value < 0 ? QStringLiteral("\u2014") : english.toString(value);
}

QString describeGroup(const JobProgress &progress)
{
    const QString group = QObject::tr("group %1").arg(progress.groupId);
    if (progress.groupState.isEmpty() || progress.groupState.compare(QLatin1String("Dead"), Qt::CaseInsensitive) == 0)
        return group + QObject::tr(": no such group yet (no progress)");
    QString text = group + QStringLiteral(": ") + progress.groupState;
    if (progress.members.isEmpty())
        return text + QObject::tr(", no active members");
    text += progress.members.size() == 1 ? QObject::tr(", 1 active member: ")
                                         : QObject::tr(", %1 active members: ").arg(progress.members.size());
    return text + progress.members.join(QStringLiteral(", "));
}

QString describeTotal(const JobProgress &progress)
{
    qsizetype withProgress = 0;
    for (const PartitionStart &p : progress.partitions) {
        if (p.committed >= 0)
            ++withProgress;
    }
    const qsizetype n = progress.partitions.size();
    const qint64 total = progress.totalToCopy();
    QString text =
        (total == 1 ? QObject::tr("1 record to copy") : QObject::tr("%1 records to copy").arg(formatOffset(total))) +
        (n == 1 ? QObject::tr(" from 1 partition") : QObject::tr(" from %1 partitions").arg(n));
    if (n > 0)
        text += withProgress == n   ? QObject::tr("; all have committed progress")
                : withProgress == 0 ? QObject::tr("; none has committed progress")
                                    : QObject::tr("; %1 have committed progress").arg(withProgress);
    return text;
}

ProgressTableModel::ProgressTableModel(Mode mode, QObject *parent) : QAbstractTableModel(parent), m_mode(mode)
{
}

ProgressTableModel::~ProgressTableModel() = default;

void ProgressTableModel::setPartitions(const QList<PartitionStart> &partitions)
{
    if (partitions == m_rows)
        return;
    beginResetModel();
    m_rows = partitions;
    endResetModel();
}

qint64 ProgressTableModel::totalToCopy() const
{
    qint64 total = 0;
    for (const PartitionStart &p : m_rows)
        total += p.toCopy;
    return total;
}

int ProgressTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int ProgressTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProgressTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const PartitionStart &p = m_rows.at(index.row());
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case TopicColumn: return p.topic;
        case PartitionColumn: return QString::number(p.partition);
        case LogStartColumn: return formatOffset(p.logStart);
        case EndColumn: return formatOffset(p.end);
        case CommittedColumn: return p.committed < 0 ? tr("none") : formatOffset(p.committed);
        case StartColumn: return m_mode == Mode::Plan ? p.describe() : formatOffset(p.start);
        case ToCopyColumn: return formatOffset(p.toCopy);
        }
        return {};
    case SortRole:
        switch (column) {
        case TopicColumn: return p.topic;
        case PartitionColumn: return p.partition;
        case LogStartColumn: return qlonglong(p.logStart);
        case EndColumn: return qlonglong(p.end);
        case CommittedColumn: return qlonglong(p.committed);
        case StartColumn: return qlonglong(p.start);
        case ToCopyColumn: return qlonglong(p.toCopy);
        }
        return {};
    case Qt::TextAlignmentRole:
        if (column == TopicColumn || (column == StartColumn && m_mode == Mode::Plan))
            return int(Qt::AlignLeft | Qt::AlignVCenter);
        return int(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        if (column == CommittedColumn && p.committed < 0)
            return kGrey;
        if (column == StartColumn &&
            (p.reason == StartReason::CommittedBelowLogStart || p.reason == StartReason::CommittedPastEnd))
            return kWarn;
        return {};
    case Qt::ToolTipRole: return rowTip(p);
    }
    return {};
}

QVariant ProgressTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount)
        return {};
    if (role == Qt::ToolTipRole) {
        switch (section) {
        case LogStartColumn: return tr("The partition's first offset on the source (low watermark)");
        case EndColumn: return tr("The partition's end offset on the source (read_committed: the last stable offset)");
        case CommittedColumn: return tr("The job group's committed offset now; \"none\": no progress");
        case StartColumn:
            return m_mode == Mode::Plan ? tr("Where the job starts this partition, and why")
                                        : tr("The committed offset after the reset");
        case ToCopyColumn: return tr("Records from the start position to the end: what a run copies from here");
        }
        return {};
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (section) {
    case TopicColumn: return tr("Topic");
    case PartitionColumn: return tr("Partition");
    case LogStartColumn: return tr("Log start");
    case EndColumn: return tr("End");
    case CommittedColumn: return m_mode == Mode::Plan ? tr("Committed") : tr("Committed now");
    case StartColumn: return m_mode == Mode::Plan ? tr("Starts") : tr("New position");
    case ToCopyColumn: return tr("To copy");
    }
    return {};
}

} // namespace md

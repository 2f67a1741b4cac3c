#include "model/tables/ClusterDiffModel.h"

#include <QColor>

namespace md {

namespace {

const QString kMissing = QStringLiteral("\u2014"); // an em dash: not on that side

QVariant countOrDash(qint64 v)
{
    return v < 0 ? QVariant(kMissing) : QVariant(qlonglong(v));
}

QVariant statusColor(bool differs, bool missing)
{
    // Mid-tone colours read on light and dark palettes alike.
    if (!differs)
        return {};
    return missing ? QColor(0xd9, 0x36, 0x36) : QColor(0xd0, 0x84, 0x00);
}

} // namespace

ClusterDiffModel::ClusterDiffModel(QObject *parent) : QAbstractItemModel(parent)
{
}

void ClusterDiffModel::setDiff(const ClusterDiff &diff)
{
    beginResetModel();
    m_diff = diff;
    rebuildVisible();
    endResetModel();
}

void ClusterDiffModel::setDifferencesOnly(bool on)
{
    if (on == m_differencesOnly)
        return;
    beginResetModel();
    m_differencesOnly = on;
    rebuildVisible();
    endResetModel();
}

void ClusterDiffModel::rebuildVisible()
{
    m_visible.clear();
    for (int i = 0; i < m_diff.topics.size(); ++i) {
        if (!m_differencesOnly || !m_diff.topics[i].inSync())
            m_visible.append(i);
    }
}

const TopicDiff *ClusterDiffModel::topicAt(int row) const
{
    return row >= 0 && row < m_visible.size() ? &m_diff.topics[m_visible[row]] : nullptr;
}

QModelIndex ClusterDiffModel::index(int row, int column, const QModelIndex &parent) const
{
    if (!hasIndex(row, column, parent))
        return {};
    // Topic rows have internal id 0; a partition row stores its topic's row + 1.
    if (!parent.isValid())
        return createIndex(row, column, quintptr(0));
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex ClusterDiffModel::parent(const QModelIndex &child) const
{
    if (!child.isValid() || child.internalId() == 0)
        return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int ClusterDiffModel::rowCount(const QModelIndex &parent) const
{
    if (!parent.isValid())
        return int(m_visible.size());
    if (parent.internalId() != 0 || parent.column() != 0)
        return 0;
    const TopicDiff *t = topicAt(parent.row());
    return t ? int(t->partitions.size()) : 0;
}

int ClusterDiffModel::columnCount(const QModelIndex &) const
{
    return ColumnCount;
}

QVariant ClusterDiffModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid))
        return {};
    if (role == Qt::TextAlignmentRole) {
        const int c = index.column();
        if (c == NameColumn || c == TargetTopicColumn || c == StatusColumn || c == DetailsColumn)
            return QVariant::fromValue(Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    }
    if (index.internalId() == 0) {
        const TopicDiff *t = topicAt(index.row());
        return t ? topicData(*t, index.column(), role) : QVariant();
    }
    const TopicDiff *t = topicAt(int(index.internalId() - 1));
    if (!t || index.row() >= t->partitions.size())
        return {};
    return partitionData(t->partitions[index.row()], index.column(), role);
}

QVariant ClusterDiffModel::topicData(const TopicDiff &t, int column, int role) const
{
    const bool missing = t.status == TopicDiff::Status::MissingOnTarget ||
                         t.status == TopicDiff::Status::MissingOnSource || t.status == TopicDiff::Status::Error;
    const qint64 difference = t.recordsBehind - t.recordsAhead;
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn: return t.sourceTopic;
        case TargetTopicColumn: return t.targetTopic;
        case StatusColumn: return topicDiffStatusName(t.status);
        case SourcePartitionsColumn: return countOrDash(t.sourcePartitions);
        case TargetPartitionsColumn: return countOrDash(t.targetPartitions);
        case SourceEndColumn:
        case TargetEndColumn: return {};
        case SourceCountColumn: return countOrDash(t.sourceCount());
        case TargetCountColumn: return countOrDash(t.targetCount());
        case DifferenceColumn:
            return t.sourcePartitions < 0 || t.targetPartitions < 0 ? QVariant(kMissing)
                                                                    : QVariant(qlonglong(difference));
        case DetailsColumn: return t.details();
        }
        break;
    case SortRole:
        switch (column) {
        case NameColumn: return t.sourceTopic;
        case TargetTopicColumn: return t.targetTopic;
        case StatusColumn: return int(t.status);
        case SourcePartitionsColumn: return t.sourcePartitions;
        case TargetPartitionsColumn: return t.targetPartitions;
        case SourceEndColumn:
        case TargetEndColumn: return 0;
        case SourceCountColumn: return qlonglong(t.sourceCount());
        case TargetCountColumn: return qlonglong(t.targetCount());
        case DifferenceColumn: return qlonglong(difference);
        case DetailsColumn: return t.details();
        }
        break;
    case DifferentRole: return !t.inSync();
    case Qt::ForegroundRole:
        if (column == StatusColumn)
            return statusColor(!t.inSync(), missing);
        break;
    case Qt::ToolTipRole:
        if (column == DetailsColumn || column == StatusColumn) {
            const QString d = t.details();
            return d.isEmpty() ? QVariant() : QVariant(d);
        }
        break;
    default: break;
    }
    return {};
}

QVariant ClusterDiffModel::partitionData(const PartitionDiff &p, int column, int role) const
{
    const bool differs = p.status != PartitionDiff::Status::InSync;
    const bool missing =
        p.status == PartitionDiff::Status::MissingOnSource || p.status == PartitionDiff::Status::MissingOnTarget;
    switch (role) {
    case Qt::DisplayRole:
        switch (column) {
        case NameColumn: return tr("partition %1").arg(p.partition);
        case StatusColumn: return partitionDiffStatusName(p.status);
        case SourceEndColumn: return countOrDash(p.sourceHigh);
        case TargetEndColumn: return countOrDash(p.targetHigh);
        case SourceCountColumn: return countOrDash(p.sourceCount());
        case TargetCountColumn: return countOrDash(p.targetCount());
        case DifferenceColumn: return missing ? QVariant(kMissing) : QVariant(qlonglong(p.endDelta()));
        default: return {};
        }
    case SortRole:
        switch (column) {
        case NameColumn: return p.partition;
        case StatusColumn: return int(p.status);
        case SourceEndColumn: return qlonglong(p.sourceHigh);
        case TargetEndColumn: return qlonglong(p.targetHigh);
        case SourceCountColumn: return qlonglong(p.sourceCount());
        case TargetCountColumn: return qlonglong(p.targetCount());
        case DifferenceColumn: return qlonglong(p.endDelta());
        default: return {};
        }
    case DifferentRole: return differs;
    case Qt::ForegroundRole:
        if (column == StatusColumn)
            return statusColor(differs, missing);
        break;
    default: break;
    }
    return {};
}

QVariant ClusterDiffModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractItemModel::headerData(section, orientation, role);
    switch (section) {
    case NameColumn: return tr("Topic");
    case TargetTopicColumn: return tr("Target topic");
    case StatusColumn: return tr("Status");
    case SourcePartitionsColumn: return tr("Source partitions");
    case TargetPartitionsColumn: return tr("Target partitions");
    case SourceEndColumn: return tr("Source end");
    case TargetEndColumn: return tr("Target end");
    case SourceCountColumn: return tr("Source messages");
    case TargetCountColumn: return tr("Target messages");
    case DifferenceColumn: return tr("Behind");
    case DetailsColumn: return tr("Differences");
    default: return {};
    }
}

} // namespace md

#include "model/tables/VerifyTableModel.h"

#include <QBrush>
#include <QColor>
#include <QLocale>

namespace md {

namespace {

QString number(qint64 n)
{
    return QLocale(QLocale::English).toString(n);
}

} // namespace

VerifyTableModel::VerifyTableModel(QObject *parent) : QAbstractTableModel(parent)
{
}

VerifyTableModel::~VerifyTableModel() = default;

void VerifyTableModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

int VerifyTableModel::rowOf(const QString &sourceTopic, int partition) const
{
    for (int i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].partition == partition && m_rows[i].sourceTopic == sourceTopic)
            return i;
    }
    return -1;
}

int VerifyTableModel::ensureRow(const QString &sourceTopic, int partition)
{
    if (const int row = rowOf(sourceTopic, partition); row >= 0)
        return row;
    const int row = int(m_rows.size());
    beginInsertRows({}, row, row);
    m_rows.append({sourceTopic, partition, 0, std::nullopt});
    endInsertRows();
    return row;
}

void VerifyTableModel::setProgress(const QString &sourceTopic, int partition, qint64 compared)
{
    const int row = ensureRow(sourceTopic, partition);
    Row &r = m_rows[row];
    if (r.verdict || r.compared == compared)
        return; // a late progress report never overwrites the verdict
    r.compared = compared;
    Q_EMIT dataChanged(index(row, StatusColumn), index(row, ComparedColumn));
}

void VerifyTableModel::setVerdict(const PartitionVerdict &verdict)
{
    const int row = ensureRow(verdict.sourceTopic, verdict.partition);
    Row &r = m_rows[row];
    r.verdict = verdict;
    r.compared = verdict.sourceCount;
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void VerifyTableModel::cancelPending()
{
    for (int row = 0; row < m_rows.size(); ++row) {
        if (!m_rows[row].verdict && !m_rows[row].cancelled) {
            m_rows[row].cancelled = true;
            Q_EMIT dataChanged(index(row, StatusColumn), index(row, StatusColumn));
        }
    }
}

QString VerifyTableModel::statusText(const Row &row)
{
    if (!row.verdict)
        return row.cancelled ? tr("cancelled") : tr("comparing\u2026");
    switch (row.verdict->status) {
    case PartitionVerdict::Status::Match: return tr("match");
    case PartitionVerdict::Status::MatchWithDuplicates:
        return row.verdict->duplicates == 1 ? tr("match with 1 duplicate")
                                            : tr("match with %1 duplicates").arg(number(row.verdict->duplicates));
    case PartitionVerdict::Status::Different: return tr("different");
    }
    return {};
}

int VerifyTableModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int VerifyTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant VerifyTableModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Row &r = m_rows[index.row()];
    const PartitionVerdict *v = r.verdict ? &*r.verdict : nullptr;
    const bool sort = role == SortRole;
    if (role == Qt::DisplayRole || sort) {
        // Counts of a partition still being read are not known yet: blank, sorted first.
        auto count = [&](qint64 n) -> QVariant {
            if (!v)
                return sort ? QVariant(qint64(-1)) : QVariant(QString());
            return sort ? QVariant(n) : QVariant(number(n));
        };
        switch (index.column()) {
        case TopicColumn: return v ? v->sourceTopic + QStringLiteral(" \u2192 ") + v->targetTopic : r.sourceTopic;
        case PartitionColumn:
            if (sort)
                return r.partition;
            return r.partition < 0 ? QStringLiteral("-") : QString::number(r.partition);
        case StatusColumn: return statusText(r);
        case ComparedColumn: return sort ? QVariant(r.compared) : QVariant(number(r.compared));
        case SourceCountColumn: return count(v ? v->sourceCount : 0);
        case TargetCountColumn: return count(v ? v->targetCount : 0);
        case DuplicatesColumn: return count(v ? v->duplicates : 0);
        case DifferenceColumn: return v ? (v->matches() ? v->trimNote : v->difference) : QString();
        default: return {};
        }
    }
    if (role == Qt::TextAlignmentRole && index.column() >= PartitionColumn && index.column() != StatusColumn &&
        index.column() != DifferenceColumn)
        return QVariant::fromValue(Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter));
    if (role == Qt::ForegroundRole && index.column() == StatusColumn && v && !v->matches())
        return QBrush(QColor(0xb0, 0x20, 0x20));
    if (role == Qt::ToolTipRole && v)
        return v->toString();
    return {};
}

QVariant VerifyTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation == Qt::Horizontal && role == Qt::ToolTipRole) {
        switch (section) {
        case ComparedColumn: return tr("Source records compared so far");
        case SourceCountColumn: return tr("Source records in the compared range");
        case TargetCountColumn: return tr("Target records read, duplicates included");
        case DuplicatesColumn: return tr("Target records that repeat an earlier stretch (at-least-once replay)");
        default: return {};
        }
    }
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    switch (section) {
    case TopicColumn: return tr("Topic \u2192 target");
    case PartitionColumn: return tr("Partition");
    case StatusColumn: return tr("Status");
    case ComparedColumn: return tr("Compared");
    case SourceCountColumn: return tr("Source");
    case TargetCountColumn: return tr("Target");
    case DuplicatesColumn: return tr("Duplicates");
    case DifferenceColumn: return tr("Difference");
    default: return {};
    }
}

} // namespace md

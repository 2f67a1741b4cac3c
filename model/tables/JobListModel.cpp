#include "model/tables/JobListModel.h"

#include "model/tables/NumberFormat.h"

#include <QBrush>
#include <QColor>

namespace md {

namespace {

// A paused job has no lag verdict: its positions stand still because the user said so,
// which is neither a STALL nor an ERR to alarm anyone with.
QString statusText(JobState state, std::optional<JobLagStatus> status)
{
    if (state == JobState::Paused)
        return QStringLiteral("PAUSED");
    return status ? jobLagStatusName(*status) : QString();
}

} // namespace

JobListModel::JobListModel(QObject *parent) : QAbstractTableModel(parent)
{
}

int JobListModel::addJob(const QString &name)
{
    const int row = int(m_jobs.size());
    beginInsertRows({}, row, row);
    m_jobs.append({name, JobState::Starting, {}, {}, {}, 0});
    endInsertRows();
    return row;
}

void JobListModel::removeJob(int row)
{
    if (row < 0 || row >= m_jobs.size())
        return;
    beginRemoveRows({}, row, row);
    m_jobs.removeAt(row);
    endRemoveRows();
}

void JobListModel::rowChanged(int row)
{
    Q_EMIT dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void JobListModel::setState(int row, JobState state)
{
    if (row < 0 || row >= m_jobs.size() || m_jobs[row].state == state)
        return;
    m_jobs[row].state = state;
    rowChanged(row);
}

void JobListModel::setMetrics(int row, const MetricsSnapshot &snapshot)
{
    if (row < 0 || row >= m_jobs.size())
        return;
    Job &j = m_jobs[row];
    // The engine's rate is already taken over a few seconds (RateWindow): the
    // list, the status line and the charts show the same figure.
    j.rate = snapshot.produceRecordsPerSec;
    j.metrics = snapshot;
    j.state = snapshot.state;
    rowChanged(row);
}

void JobListModel::setStatus(int row, JobLagStatus status)
{
    if (row < 0 || row >= m_jobs.size() || m_jobs[row].status == status)
        return;
    m_jobs[row].status = status;
    rowChanged(row);
}

void JobListModel::setLastEvent(int row, const JobEvent &event)
{
    if (row < 0 || row >= m_jobs.size())
        return;
    m_jobs[row].lastEvent = event;
    rowChanged(row);
}

int JobListModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_jobs.size());
}

int JobListModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant JobListModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const Job &j = m_jobs[index.row()];
    const MetricsSnapshot &m = j.metrics;
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Name: return j.name;
        case State: return jobStateName(j.state);
        case Records: return formatCount(double(m.recordsProduced));
        case Rate: return QString(formatCount(j.rate) + tr("/s"));
        case Lag: return formatCount(double(m.totalLag));
        case Status: return statusText(j.state, j.status);
        case LastEvent: return j.lastEvent.text;
        case LagTime: return lagTimeText(m.maxLagMs);
        case CatchUp: return catchUpText(m.catchUpSeconds);
        }
    } else if (role == SortRole) {
        switch (index.column()) {
        case Name: return j.name;
        case State: return int(j.state);
        case Records: return m.recordsProduced;
        case Rate: return j.rate;
        case Lag: return m.totalLag;
        case Status: return statusText(j.state, j.status);
        case LastEvent: return j.lastEvent.time;
        case LagTime: return m.maxLagMs;
        case CatchUp: return m.catchUpSeconds; // never (infinity) sorts last, unknown (-1) first
        }
    } else if (role == Qt::ForegroundRole) {
        if (index.column() == State && j.state == JobState::Failed)
            return QBrush(QColor(0xc0, 0x1c, 0x28));
        if (index.column() == LagTime && m.retentionAtRisk > 0)
            return QBrush(QColor(0xc0, 0x1c, 0x28));
        if (index.column() == LastEvent && j.lastEvent.severity != JobEvent::Severity::Info)
            return QBrush(j.lastEvent.severity == JobEvent::Severity::Error ? QColor(0xc0, 0x1c, 0x28)
                                                                            : QColor(0xb5, 0x83, 0x5a));
    } else if (role == Qt::ToolTipRole && index.column() == LastEvent && !j.lastEvent.text.isEmpty()) {
        return QString(j.lastEvent.time.toLocalTime().toString(Qt::ISODate) + QLatin1Char(' ') + j.lastEvent.text);
    } else if (role == Qt::ToolTipRole && index.column() == LagTime && m.retentionAtRisk > 0) {
        return tr("%n partition(s) about to lose their next record to the source's retention", nullptr,
                  m.retentionAtRisk);
    } else if (role == Qt::TextAlignmentRole &&
               ((index.column() >= Records && index.column() <= Lag) || index.column() >= LagTime)) {
        return QVariant(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant JobListModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Name: return tr("Job");
    case State: return tr("State");
    case Records: return tr("Copied");
    case Rate: return tr("Rate");
    case Lag: return tr("Lag");
    case Status: return tr("Status");
    case LastEvent: return tr("Last event");
    case LagTime: return tr("Lag (time)");
    case CatchUp: return tr("Catch-up");
    }
    return {};
}

} // namespace md

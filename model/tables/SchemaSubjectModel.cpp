#include "model/tables/SchemaSubjectModel.h"

#include <QBrush>
#include <QColor>

#include <algorithm>

namespace md {

SubjectTopic topicForSubject(const QString &subject)
{
    for (const auto &[suffix, part] : {std::pair{QLatin1String("-value"), SubjectTopic::Part::Value},
                                       std::pair{QLatin1String("-key"), SubjectTopic::Part::Key}}) {
        // "-value" alone names no topic: a topic name is never empty.
        if (subject.size() > suffix.size() && subject.endsWith(suffix))
            return {part, subject.left(subject.size() - suffix.size())};
    }
    return {};
}

SchemaSubjectModel::SchemaSubjectModel(QObject *parent) : MergingTableModel(parent)
{
}

void SchemaSubjectModel::setSubjects(QStringList subjects)
{
    std::sort(subjects.begin(), subjects.end());
    subjects.erase(std::unique(subjects.begin(), subjects.end()), subjects.end());
    QList<Row> next;
    next.reserve(subjects.size());
    qsizetype i = 0;
    for (const QString &s : subjects) {
        // Both sorted: walk the current rows alongside to keep what is known.
        while (i < m_rows.size() && m_rows[i].summary.subject < s)
            ++i;
        if (i < m_rows.size() && m_rows[i].summary.subject == s) {
            next.append(m_rows[i]);
        } else {
            Row r;
            r.summary.subject = s;
            next.append(r);
        }
    }
    mergeSortedRows(m_rows, next, [](const Row &r) -> const QString & { return r.summary.subject; });
    countLoaded();
}

void SchemaSubjectModel::setSummaries(const QList<SubjectSummary> &summaries)
{
    const int lastColumn = ColumnCount - 1;
    for (const SubjectSummary &s : summaries) {
        const int row = rowOf(s.subject);
        if (row < 0)
            continue;
        Row &r = m_rows[row];
        if (r.loaded && r.summary == s)
            continue;
        if (!r.loaded)
            ++m_loaded;
        r.summary = s;
        r.loaded = true;
        Q_EMIT dataChanged(index(row, 0), index(row, lastColumn));
    }
}

void SchemaSubjectModel::setTopics(const QSet<QString> &topics)
{
    if (m_topicsKnown && topics == m_topics)
        return;
    m_topics = topics;
    m_topicsKnown = true;
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, Topic), index(int(m_rows.size()) - 1, Topic));
}

void SchemaSubjectModel::clear()
{
    mergeSortedRows(m_rows, {}, [](const Row &r) -> const QString & { return r.summary.subject; });
    m_loaded = 0;
}

void SchemaSubjectModel::countLoaded()
{
    m_loaded = int(std::count_if(m_rows.cbegin(), m_rows.cend(), [](const Row &r) { return r.loaded; }));
}

int SchemaSubjectModel::rowOf(const QString &subject) const
{
    const auto it = std::lower_bound(m_rows.cbegin(), m_rows.cend(), subject,
                                     [](const Row &r, const QString &s) { return r.summary.subject < s; });
    return it != m_rows.cend() && it->summary.subject == subject ? int(it - m_rows.cbegin()) : -1;
}

const SchemaSubjectModel::Row *SchemaSubjectModel::rowAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows.at(row) : nullptr;
}

QStringList SchemaSubjectModel::subjects() const
{
    QStringList out;
    out.reserve(m_rows.size());
    for (const Row &r : m_rows)
        out.append(r.summary.subject);
    return out;
}

int SchemaSubjectModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int SchemaSubjectModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString SchemaSubjectModel::topicText(const QString &subject) const
{
    const SubjectTopic t = topicForSubject(subject);
    if (t.part == SubjectTopic::Part::None)
        return {};
    const QString part = t.part == SubjectTopic::Part::Key ? tr("key") : tr("value");
    if (m_topicsKnown && !m_topics.contains(t.topic))
        return tr("%1 (%2) - no such topic").arg(t.topic, part);
    return tr("%1 (%2)").arg(t.topic, part);
}

QVariant SchemaSubjectModel::display(const Row &r, int column) const
{
    const SubjectSummary &s = r.summary;
    // Not read yet, or not readable: the list still says which subjects there are.
    const bool known = r.loaded && s.error.isEmpty();
    switch (column) {
    case Subject: return s.subject;
    case Latest: return known ? QVariant(s.latestVersion) : QVariant(r.loaded ? tr("?") : QStringLiteral("\u2026"));
    case Type: return known ? s.type : QString();
    case Compatibility: return known ? s.compatibility : QString();
    case Versions: return known ? QVariant(s.versionCount) : QVariant(QString());
    case Topic: return topicText(s.subject);
    default: return {};
    }
}

QVariant SchemaSubjectModel::data(const QModelIndex &index, int role) const
{
    const Row *r = index.isValid() ? rowAt(index.row()) : nullptr;
    if (!r)
        return {};
    const SubjectSummary &s = r->summary;
    if (role == SortRole && index.column() == Latest)
        return s.latestVersion;
    if (role == SortRole && index.column() == Versions)
        return s.versionCount;
    switch (role) {
    case Qt::DisplayRole:
    case SortRole: return display(*r, index.column());
    case Qt::ToolTipRole:
        if (!s.error.isEmpty())
            return s.error;
        if (index.column() == Compatibility && r->loaded)
            return s.ownCompatibility ? tr("This subject's own compatibility level")
                                      : tr("The registry's global level (the subject has none of its own)");
        if (index.column() == Topic) {
            const SubjectTopic t = topicForSubject(s.subject);
            if (t.part == SubjectTopic::Part::None)
                return tr("Not named <topic>-key or <topic>-value (TopicNameStrategy): no topic by name");
            if (m_topicsKnown && !m_topics.contains(t.topic))
                return tr("The TopicNameStrategy names topic \"%1\", which this cluster does not have").arg(t.topic);
            return tr("The %1 schema of topic \"%2\" by the TopicNameStrategy")
                .arg(t.part == SubjectTopic::Part::Key ? tr("key") : tr("value"), t.topic);
        }
        return {};
    case Qt::ForegroundRole:
        if (!s.error.isEmpty() && r->loaded)
            return QBrush(QColor(0xc0, 0x1c, 0x28));
        if (index.column() == Topic) {
            const SubjectTopic t = topicForSubject(s.subject);
            if (m_topicsKnown && t.part != SubjectTopic::Part::None && !m_topics.contains(t.topic))
                return QBrush(QColor(0x77, 0x77, 0x77));
        }
        if (index.column() == Compatibility && r->loaded && !s.ownCompatibility)
            return QBrush(QColor(0x77, 0x77, 0x77));
        return {};
    case Qt::TextAlignmentRole:
        if (index.column() == Latest || index.column() == Versions)
            return int(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    default: return {};
    }
}

QVariant SchemaSubjectModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Subject: return tr("Subject");
    case Latest: return tr("Latest");
    case Type: return tr("Type");
    case Compatibility: return tr("Compatibility");
    case Versions: return tr("Versions");
    case Topic: return tr("Topic");
    default: return {};
    }
}

} // namespace md

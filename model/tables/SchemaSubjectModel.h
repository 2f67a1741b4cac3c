#pragma once

#include "engine/schema/SchemaCatalog.h"
#include "model/tables/KeyedMerge.h"

#include <QSet>

namespace md {

// The topic a subject belongs to by the default TopicNameStrategy:
// "<topic>-key" or "<topic>-value". Subjects named otherwise (RecordNameStrategy's
// "com.acme.Order", TopicRecordNameStrategy's "orders-com.acme.Order", a
// shared type's subject) belong to no topic by name.
struct SubjectTopic {
    enum class Part { None, Key, Value };
    Part part = Part::None;
    QString topic;
    bool operator==(const SubjectTopic &) const = default;
};
SubjectTopic topicForSubject(const QString &subject);

// A registry's subjects, one row each, sorted by name and merged by it on
// every refresh. The list comes first (setSubjects: names only, details
// pending); the details arrive later in batches (setSummaries), so a registry
// of thousands of subjects is listed at once and filled in as it is read.
class SchemaSubjectModel final : public MergingTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SchemaSubjectModel)
public:
    enum Column { Subject, Latest, Type, Compatibility, Versions, Topic, ColumnCount };
    static constexpr int SortRole = Qt::UserRole + 1; // raw values for QSortFilterProxyModel

    struct Row {
        SubjectSummary summary; // summary.subject is the key
        bool loaded = false;    // summary holds the registry's answer (or its error)
        bool operator==(const Row &) const = default;
    };

    explicit SchemaSubjectModel(QObject *parent = nullptr);

    // The subjects as listed (any order): rows of subjects still there keep
    // their details until newer ones arrive.
    void setSubjects(QStringList subjects);
    // Details of listed subjects (others are ignored).
    void setSummaries(const QList<SubjectSummary> &summaries);
    // The cluster's topics, to say whether a subject's topic exists.
    void setTopics(const QSet<QString> &topics);
    void clear();

    int rowOf(const QString &subject) const; // -1 when not listed
    const Row *rowAt(int row) const;
    QStringList subjects() const;
    int loadedCount() const { return m_loaded; }

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "orders (value)", "orders (key) - no such topic", "" for no topic.
    QString topicText(const QString &subject) const;

private:
    QVariant display(const Row &r, int column) const;
    void countLoaded();

    QList<Row> m_rows;
    QSet<QString> m_topics;
    bool m_topicsKnown = false; // before the first metadata, nothing is said missing
    int m_loaded = 0;
};

} // namespace md

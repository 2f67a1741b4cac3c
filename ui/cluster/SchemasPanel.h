#pragma once

#include "engine/admin/ClusterMetadata.h"
#include "engine/schema/SchemaCatalog.h"

#include <QDateTime>
#include <QSet>
#include <QStringList>
#include <QWidget>

#include <atomic>
#include <memory>
#include <vector>

class QLabel;
class QLineEdit;
class QProgressBar;
class QSortFilterProxyModel;
class QStackedWidget;
class QTableView;
class QToolButton;

namespace md {

class RegistryDecoders;
class SchemaDetails;
class SchemaSubjectModel;

// The "Schemas" tab of a cluster pane: the subjects of the cluster's schema
// registry (latest version, type, compatibility, number of versions, the topic
// each names by the TopicNameStrategy) with a filter, and the selected
// subject's details (SchemaDetails). Without a registry it says so and how to
// add one.
//
// Every registry call is a task (md::inBackground), answers of an older
// refresh or selection are dropped (generation counters). The list comes
// first; the subjects' details follow in chunks on a few clients of their own
// (bounded parallelism), the rows on screen first, so 1,000s of subjects are
// listed at once and never cost the UI thread a request. Nothing is fetched
// while the tab is hidden: a refresh asked for then runs when it is shown.
class SchemasPanel final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(SchemasPanel)
public:
    explicit SchemasPanel(QWidget *parent = nullptr);
    ~SchemasPanel() override;

    // The pane's registry (AdminClient::registryDecoders: the client decoding
    // uses); null or without a URL: the placeholder.
    void setRegistry(std::shared_ptr<RegistryDecoders> registry);
    bool hasRegistry() const;
    // The cluster's topics, to say whether a subject's topic exists.
    void setMetadata(const ClusterMetadata &metadata);
    // Lists the subjects again, then their details, and the selected one's.
    void refresh();
    // Selects `subject` (clearing a filter that hides it) and shows `version` (-1: the latest).
    void openSubject(const QString &subject, int version = -1);

    bool isListing() const { return m_listing; }
    // Subjects whose details are still to be read (queued or in flight).
    int pendingDetails() const;
    SchemaSubjectModel *model() const { return m_model; }
    QTableView *view() const { return m_view; }
    QLineEdit *filterEdit() const { return m_filter; }
    QToolButton *refreshButton() const { return m_refresh; }
    SchemaDetails *details() const { return m_details; }
    QString statusText() const;
    QString placeholderText() const;

Q_SIGNALS:
    // The subject list arrived (count) or could not be read (message).
    void subjectsListed(int count);
    void listFailed(const QString &message);
    // Every listed subject's details were read (or the batch ended on an error).
    void detailsLoaded();
    // The details side shows subject at version, or could not.
    void subjectShown(const QString &subject, int version);
    void subjectFailed(const QString &subject, const QString &message);

protected:
    void showEvent(QShowEvent *event) override;

private:
    struct Lane {
        std::shared_ptr<SchemaRegistryClient> client;
        bool busy = false;
    };
    void onList(quint64 generation, const SubjectList &list);
    void scheduleDetails();
    QStringList nextChunk();
    void onChunk(quint64 generation, const std::shared_ptr<SchemaRegistryClient> &lane, const SummaryBatch &batch);
    void onSelectionChanged();
    void showSubject(const QString &subject, int version);
    void updateStatus();
    void setStatus(const QString &text, bool error);
    QString where() const;

    std::shared_ptr<RegistryDecoders> m_registry;
    std::vector<Lane> m_lanes; // the details batch's own clients
    SchemaSubjectModel *m_model;
    QSortFilterProxyModel *m_proxy;
    QStackedWidget *m_stack;
    QLabel *m_placeholder;
    QLineEdit *m_filter;
    QToolButton *m_refresh;
    QLabel *m_status;
    QProgressBar *m_progress;
    QTableView *m_view;
    SchemaDetails *m_details;

    quint64 m_generation = 0;                  // the registry and refresh answers belong to
    std::shared_ptr<std::atomic<bool>> m_stop; // tells the current batch's tasks to end
    bool m_stale = true;                       // a refresh is due when the tab is shown
    bool m_listing = false;
    QString m_global;       // the registry's global compatibility level
    QStringList m_queue;    // subjects whose details are to be read, in list order
    QSet<QString> m_queued; // the same, to look up
    int m_inFlight = 0;     // subjects in running chunks of this generation
    QString m_batchError;   // what ended the batch early
    QString m_listError;    // what the last listing said
    QDateTime m_listedAt;   // when the last list arrived
    quint64 m_detailGeneration = 0;
    std::shared_ptr<std::atomic<bool>> m_detailStop; // tells the previous selection's task to end
    QString m_shownSubject;                          // the details side's subject ...
    int m_shownVersion = -1;                         // ... and version (-1: follow the latest)
    QString m_selectWhenListed;                      // openSubject before the list had it
    int m_versionWhenListed = -1;
};

} // namespace md

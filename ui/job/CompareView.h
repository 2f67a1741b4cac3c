#pragma once

#include "engine/mirror/MirrorJobSpec.h"
#include "model/cluster/ClusterDiff.h"
#include "model/cluster/ClusterSnapshot.h"

#include <QWidget>

#include <atomic>
#include <memory>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QListWidget;
class QSortFilterProxyModel;
class QToolButton;
class QTreeView;

namespace md {

class ClusterDiffModel;

// The "Compare clusters" view of a job: its topics on the source and on the target under
// its naming policy, side by side (ClusterDiff), as a tree of topics and partitions with
// a summary line, a differences-only filter, a text filter and refresh.
class CompareView final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CompareView)
public:
    // Closing the view while a fetch runs returns at once; the fetch is cancelled and its answer dropped.
    explicit CompareView(const MirrorJobSpec &spec, QWidget *parent = nullptr);
    ~CompareView() override;

    const MirrorJobSpec &spec() const { return m_spec; }
    ClusterDiffModel *model() const { return m_model; }
    QSortFilterProxyModel *proxy() const { return m_proxy; }
    QTreeView *view() const { return m_view; }
    const ClusterDiff &diff() const;
    QString summaryText() const;
    QString errorText() const;
    // What a cluster does not support (ClusterSnapshot::notes), shown plainly beside the summary.
    QString noteText() const;
    // The "Schemas" section under the tree: what the mirrored topics' subjects
    // and schema ids are on the target's registry (hidden when neither cluster has one).
    const RegistryComparison &registryComparison() const { return m_registry; }
    QListWidget *schemasList() const { return m_schemas; }
    QPushButton *syncSchemasButton() const { return m_syncSchemas; }
    bool isBusy() const { return m_fetching; }
    void setDifferencesOnly(bool on);

public Q_SLOTS:
    // Reads both sides again (readClusterSnapshot, in the background); the tree updates
    // when both are in. A refresh asked for while one runs is done right after it, so an
    // answer is never older than the one shown (one fetch at a time: none can go stale).
    void refresh();
    // A fetch runs (or another was asked for while one ran, and follows it).
    bool isRefreshing() const { return m_fetching || m_refreshAgain; }
    // Ends a running fetch at once (its late answer is dropped; the reading
    // ends on its own within about a second); the tree keeps what it showed.
    void cancelRefresh();

Q_SIGNALS:
    // A refresh ended (the diff is updated, or errorText() says why not).
    void refreshed();

private:
    void apply(const ClusterSnapshot &snapshot);
    void applySchemas(const RegistryComparison &comparison);

    MirrorJobSpec m_spec;
    ClusterDiffModel *m_model = nullptr;
    QSortFilterProxyModel *m_proxy = nullptr;
    QTreeView *m_view = nullptr;
    QLabel *m_summary = nullptr;
    QLabel *m_error = nullptr;
    QLabel *m_note = nullptr;
    QCheckBox *m_differencesOnly = nullptr;
    QLineEdit *m_filter = nullptr;
    QToolButton *m_refresh = nullptr;
    QToolButton *m_cancel = nullptr;
    QLabel *m_schemasTitle = nullptr;
    QPushButton *m_syncSchemas = nullptr; // opens SchemaSyncDialog
    QListWidget *m_schemas = nullptr;
    RegistryComparison m_registry;
    bool m_fetching = false;
    bool m_refreshAgain = false;
    // The running fetch's: a cancel sets it and bumps the generation, so its late answer is dropped.
    std::shared_ptr<std::atomic_bool> m_fetchCancel;
    quint64 m_generation = 0;
};

} // namespace md

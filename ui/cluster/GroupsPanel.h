#pragma once

#include "engine/admin/AdminClient.h"

#include <QDialog>
#include <QSet>
#include <QWidget>

class QComboBox;
class QDateTimeEdit;
class QLabel;
class QLineEdit;
class QPushButton;
class QSortFilterProxyModel;
class QTableView;
class QTableWidget;
class QTimer;

namespace md {

class ConsumerGroupModel;
class GroupOffsetsModel;

// The "Consumer groups" tab of a cluster pane: every group (filterable), and
// for the selected one its members, per-partition committed offset, end offset
// and lag, and the total lag. Reset offsets (only for an Empty group, with the
// reason shown otherwise), delete group, and "watch lag". All Kafka calls go
// through the pane's AdminClient; answers to other panels' requests are ignored.
class GroupsPanel final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(GroupsPanel)
public:
    explicit GroupsPanel(AdminClient *admin, QWidget *parent = nullptr);
    ~GroupsPanel() override;

    // Lists the groups again (and the selected group's offsets).
    void refresh();
    // Selects a group by id (after a refresh has listed it); false if not listed.
    bool selectGroup(const QString &groupId);
    QString selectedGroupId() const;

    // The actions without their dialogs (the buttons ask first, then call these).
    void resetOffsets(const OffsetReset &reset);
    void deleteGroup(const QString &groupId);

    ConsumerGroupModel *groupModel() const { return m_groups; }
    GroupOffsetsModel *offsetsModel() const { return m_offsets; }
    QTableView *groupView() const { return m_groupView; }
    QTableView *offsetsView() const { return m_offsetsView; }
    QTableWidget *membersView() const { return m_members; }
    QPushButton *resetButton() const { return m_reset; }
    QPushButton *deleteButton() const { return m_delete; }
    QPushButton *watchButton() const { return m_watch; }
    QString statusText() const;
    QString totalLagText() const;
    QString resetHint() const; // why reset is unavailable (empty when it is)
    bool isBusy() const { return !m_pending.isEmpty(); }

Q_SIGNALS:
    void watchGroupRequested(const QString &groupId);
    // An action finished (success or the broker's error, as shown in the status line).
    void actionFinished(bool ok, const QString &message);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void onGroups(quint64 id, const QList<ConsumerGroupInfo> &groups);
    void onOffsets(quint64 id, const QString &groupId, const QList<GroupPartitionOffset> &offsets);
    void onDone(quint64 id, AdminClient::Operation op);
    void onFailed(quint64 id, AdminClient::Operation op, const QString &error);
    void onSelectionChanged();
    void requestOffsets();
    void updateDetails();
    void showStatus(const QString &text, bool error);
    void askReset();
    void askDelete();
    const ConsumerGroupInfo *selectedGroup() const;

    AdminClient *m_admin;
    ConsumerGroupModel *m_groups;
    GroupOffsetsModel *m_offsets;
    QSortFilterProxyModel *m_groupProxy;
    QSortFilterProxyModel *m_offsetsProxy;
    QLineEdit *m_filter;
    QTableView *m_groupView;
    QTableView *m_offsetsView;
    QTableWidget *m_members;
    QLabel *m_groupTitle;
    QLabel *m_totalLag;
    QLabel *m_resetHint;
    QLabel *m_status;
    QPushButton *m_refresh;
    QPushButton *m_reset;
    QPushButton *m_delete;
    QPushButton *m_watch;
    QTimer *m_autoRefresh;
    QSet<quint64> m_pending; // our requests still out
    quint64 m_listRequest = 0;
    quint64 m_offsetsRequest = 0;
    QString m_pendingAction; // what the running reset/delete is, for its status line
};

// Asks how to reset a group's offsets: earliest, latest, a time, or explicit
// offsets per partition (prefilled with the committed offsets).
class ResetOffsetsDialog final : public QDialog {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ResetOffsetsDialog)
public:
    ResetOffsetsDialog(const QString &groupId, const QList<GroupPartitionOffset> &offsets, QWidget *parent = nullptr);

    // The reset asked for; *error set (and {} returned) when an explicit offset is not a number.
    OffsetReset reset(QString *error) const;
    QComboBox *modeBox() const { return m_mode; }
    QDateTimeEdit *timeEdit() const { return m_time; }
    QTableWidget *offsetTable() const { return m_table; }

private:
    void updateMode();
    void accept() override;

    QList<GroupPartitionOffset> m_offsets;
    QComboBox *m_mode;
    QDateTimeEdit *m_time;
    QTableWidget *m_table;
    QLabel *m_error;
};

} // namespace md

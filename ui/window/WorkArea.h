#pragma once

#include <QHash>
#include <QPointer>
#include <QSet>
#include <QStringList>
#include <QWidget>

#include <optional>

class QSplitter;
class QTabWidget;

namespace md {

// The window's centre: two tabbed work areas side by side (Qt Creator's split editor).
// Every page has a key ("source", "job:<profile>") by which the layout is saved and
// restored. Pinned pages (the cluster views) cannot be closed; the others close to
// "parked" (kept, hidden, reopened on the side they left) or are deleted on close.
// A side without pages hides, so the other one gets the whole width. A tab
// dragged from its tab bar and let go over the other side moves there (at the
// tab under the pointer), as in Qt Creator; with the other side hidden, over
// the outer quarter of the work area on that side. Inside its own bar a drag
// reorders, as QTabBar does.
class WorkArea final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WorkArea)
public:
    enum Side { Left = 0, Right = 1 };
    enum class OnClose { Park, Delete };

    explicit WorkArea(QWidget *parent = nullptr);
    ~WorkArea() override;

    QTabWidget *tabs(Side side) const { return m_tabs[side]; }
    QSplitter *splitter() const { return m_splitter; }

    // A page that is always open (no close button).
    void addPinned(QWidget *page, const QString &key, const QString &title, Side side);
    // Opens `page` (reusing the side it was last on, else `side`) and makes it current;
    // an open page is only made current. The work area takes ownership.
    void open(QWidget *page, const QString &key, const QString &title, Side side, OnClose onClose = OnClose::Park);
    // Closes a page that is not pinned (parks or deletes it, see OnClose).
    void closePage(QWidget *page);
    void moveToOtherSide(QWidget *page);
    // Moves an open page to `side` at `index` (-1: the end) and makes it current there.
    void moveTo(QWidget *page, Side side, int index = -1);
    // Makes an open page the current tab of its side and gives it focus.
    void raise(QWidget *page);

    bool isOpen(const QWidget *page) const;
    bool isPinned(const QWidget *page) const;
    Side sideOf(const QWidget *page) const;  // of an open page
    QWidget *page(const QString &key) const; // open or parked, else null
    bool hasPendingPage(const QString &key) const { return m_pendingIndex.contains(key); }
    QString keyOf(const QWidget *page) const { return m_pages.value(page).key; }
    void setTitle(QWidget *page, const QString &title, const QString &toolTip = {});

    // Per side, the keys of its open pages in tab order, then "current=<key>".
    QList<QStringList> layout() const;
    // Moves the listed pages that exist to their side and order; pages that do not exist
    // yet are opened there when they come (open() of their key). Unlisted pages stay.
    void restoreLayout(const QList<QStringList> &layout);

Q_SIGNALS:
    // The current page of a side changed, or a page opened or closed.
    void pagesChanged();

protected:
    bool eventFilter(QObject *watched, QEvent *event) override;

private:
    struct Drop {
        Side side = Left;
        int index = -1;
    };
    // Where a tab dragged from `from` goes when let go at `global`; nothing
    // on its own bar (QTabBar reorders it), after a short move, or elsewhere.
    std::optional<Drop> dropTarget(Side from, const QPoint &global) const;
    struct Page {
        QString key;
        QString title;
        QString toolTip;
        bool pinned = false;
        OnClose onClose = OnClose::Park;
    };
    void track(QWidget *page, const Page &entry);
    void place(QWidget *page, Side side, int index);
    void showTabMenu(Side side, const QPoint &pos);
    void updateSides();

    QSplitter *m_splitter;
    QTabWidget *m_tabs[2] = {nullptr, nullptr};
    QHash<const QWidget *, Page> m_pages; // open and parked
    QHash<QString, Side> m_lastSide;      // by key: where a page was, for its reopening
    QHash<QString, int> m_pendingIndex;   // by key: a restored page not opened yet
    QSet<QString> m_pendingCurrent;       // those of them that were current
    // The tab being dragged: pressed on a bar, moved to the other side on its release.
    QPointer<QWidget> m_dragPage;
    Side m_dragFrom = Left;
    QPoint m_dragStart; // global
};

} // namespace md

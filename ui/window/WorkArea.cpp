#include "ui/window/WorkArea.h"

#include <QApplication>
#include <QMenu>
#include <QMouseEvent>
#include <QSplitter>
#include <QTabBar>
#include <QTabWidget>
#include <QVBoxLayout>

#include <utility>

namespace md {

namespace {
const auto kCurrentPrefix = QLatin1String("current=");
}

WorkArea::WorkArea(QWidget *parent) : QWidget(parent), m_splitter(new QSplitter(Qt::Horizontal, this))
{
    setObjectName(QStringLiteral("workArea"));
    m_splitter->setObjectName(QStringLiteral("workSplitter"));
    m_splitter->setChildrenCollapsible(false);
    for (Side side : {Left, Right}) {
        auto *tabs = new QTabWidget(m_splitter);
        tabs->setObjectName(side == Left ? QStringLiteral("leftTabs") : QStringLiteral("rightTabs"));
        tabs->setMovable(true);
        tabs->setTabsClosable(true);
        tabs->setDocumentMode(true);
        tabs->setUsesScrollButtons(true); // many tabs scroll, they never widen the side
        tabs->tabBar()->setContextMenuPolicy(Qt::CustomContextMenu);
        connect(tabs->tabBar(), &QWidget::customContextMenuRequested, this,
                [this, side](const QPoint &pos) { showTabMenu(side, pos); });
        connect(tabs, &QTabWidget::tabCloseRequested, this,
                [this, tabs](int index) { closePage(tabs->widget(index)); });
        connect(tabs, &QTabWidget::currentChanged, this, &WorkArea::pagesChanged);
        m_splitter->addWidget(tabs);
        m_tabs[side] = tabs;
    }
    // A tab dragged to the other side; both bars exist before the first event comes.
    for (QTabWidget *tabs : m_tabs)
        tabs->tabBar()->installEventFilter(this);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_splitter);
    updateSides();
}

WorkArea::~WorkArea()
{
    // The pages die with their tab widgets after this object's members: no more tracking.
    for (auto it = m_pages.cbegin(); it != m_pages.cend(); ++it)
        disconnect(it.key(), nullptr, this, nullptr);
}

void WorkArea::track(QWidget *page, const Page &entry)
{
    if (!m_pages.contains(page))
        connect(page, &QObject::destroyed, this, [this, page] {
            m_pages.remove(page);
            updateSides();
        });
    m_pages.insert(page, entry);
}

void WorkArea::addPinned(QWidget *page, const QString &key, const QString &title, Side side)
{
    Page entry;
    entry.key = key;
    entry.title = title;
    entry.pinned = true;
    track(page, entry);
    place(page, side, -1);
}

void WorkArea::open(QWidget *page, const QString &key, const QString &title, Side side, OnClose onClose)
{
    if (isOpen(page)) {
        raise(page);
        return;
    }
    Page entry = m_pages.value(page);
    entry.key = key;
    entry.title = title;
    entry.onClose = onClose;
    track(page, entry);
    // A page of the restored layout takes its place; it is current only if it was.
    const bool restored = m_pendingIndex.contains(key);
    place(page, m_lastSide.value(key, side), restored ? m_pendingIndex.take(key) : -1);
    if (!restored || m_pendingCurrent.remove(key))
        raise(page);
    else
        Q_EMIT pagesChanged();
}

void WorkArea::closePage(QWidget *page)
{
    if (!page || !isOpen(page) || isPinned(page))
        return;
    const Side side = sideOf(page);
    QTabWidget *tabs = m_tabs[side];
    m_lastSide.insert(keyOf(page), side);
    tabs->removeTab(tabs->indexOf(page));
    if (m_pages.value(page).onClose == OnClose::Delete) {
        m_pages.remove(page);
        disconnect(page, nullptr, this, nullptr);
        page->deleteLater();
    } else {
        // Kept for its reopening (a job's monitor goes on recording); hidden, it draws nothing.
        page->hide();
        page->setParent(this);
    }
    updateSides();
    Q_EMIT pagesChanged();
}

void WorkArea::moveToOtherSide(QWidget *page)
{
    if (isOpen(page))
        moveTo(page, sideOf(page) == Left ? Right : Left);
}

void WorkArea::moveTo(QWidget *page, Side side, int index)
{
    if (!isOpen(page))
        return;
    place(page, side, index);
    m_lastSide.insert(keyOf(page), side);
    raise(page);
}

bool WorkArea::eventFilter(QObject *watched, QEvent *event)
{
    const Side side = watched == m_tabs[Right]->tabBar() ? Right : Left;
    if (watched != m_tabs[side]->tabBar())
        return QWidget::eventFilter(watched, event);
    QTabBar *bar = m_tabs[side]->tabBar();
    auto *mouse = dynamic_cast<QMouseEvent *>(event);
    switch (event->type()) {
    case QEvent::MouseButtonPress:
        m_dragPage = nullptr;
        if (mouse->button() == Qt::LeftButton) {
            m_dragPage = m_tabs[side]->widget(bar->tabAt(mouse->position().toPoint()));
            m_dragFrom = side;
            m_dragStart = mouse->globalPosition().toPoint();
        }
        break;
    case QEvent::MouseMove:
        // Says where a release would put the tab (QTabBar keeps drawing it inside its own bar).
        if (m_dragPage && (mouse->buttons() & Qt::LeftButton)) {
            if (dropTarget(m_dragFrom, mouse->globalPosition().toPoint()))
                bar->setCursor(Qt::DragMoveCursor);
            else
                bar->unsetCursor();
        }
        break;
    case QEvent::MouseButtonRelease:
        if (mouse->button() == Qt::LeftButton && m_dragPage) {
            bar->unsetCursor();
            const std::optional<Drop> drop = dropTarget(m_dragFrom, mouse->globalPosition().toPoint());
            QPointer<QWidget> page = std::exchange(m_dragPage, nullptr);
            // After QTabBar has ended its own move of the tab: the tab is not taken from under it.
            if (drop) {
                QMetaObject::invokeMethod(
                    this, [this, page, drop] { moveTo(page, drop->side, drop->index); }, Qt::QueuedConnection);
            }
        }
        break;
    default: break;
    }
    return QWidget::eventFilter(watched, event);
}

std::optional<WorkArea::Drop> WorkArea::dropTarget(Side from, const QPoint &global) const
{
    const QTabBar *own = m_tabs[from]->tabBar();
    if ((global - m_dragStart).manhattanLength() < QApplication::startDragDistance() ||
        own->rect().contains(own->mapFromGlobal(global)))
        return std::nullopt;
    const Side other = from == Left ? Right : Left;
    const QTabWidget *tabs = m_tabs[other];
    if (tabs->isVisible()) {
        if (!tabs->rect().contains(tabs->mapFromGlobal(global)))
            return std::nullopt;
        const int at = tabs->tabBar()->tabAt(tabs->tabBar()->mapFromGlobal(global));
        return Drop{other, at};
    }
    // The other side is empty and hidden: its edge of the work area stands for it.
    const QPoint p = mapFromGlobal(global);
    if (!rect().contains(p))
        return std::nullopt;
    const bool outer = other == Right ? p.x() >= width() - width() / 4 : p.x() < width() / 4;
    return outer ? std::optional<Drop>(Drop{other, -1}) : std::nullopt;
}

void WorkArea::raise(QWidget *page)
{
    if (!isOpen(page))
        return;
    m_tabs[sideOf(page)]->setCurrentWidget(page);
    Q_EMIT pagesChanged();
}

bool WorkArea::isOpen(const QWidget *page) const
{
    auto *w = const_cast<QWidget *>(page);
    return page && (m_tabs[Left]->indexOf(w) >= 0 || m_tabs[Right]->indexOf(w) >= 0);
}

bool WorkArea::isPinned(const QWidget *page) const
{
    return m_pages.value(page).pinned;
}

WorkArea::Side WorkArea::sideOf(const QWidget *page) const
{
    return m_tabs[Right]->indexOf(const_cast<QWidget *>(page)) >= 0 ? Right : Left;
}

QWidget *WorkArea::page(const QString &key) const
{
    for (auto it = m_pages.cbegin(); it != m_pages.cend(); ++it) {
        if (it->key == key)
            return const_cast<QWidget *>(it.key());
    }
    return nullptr;
}

void WorkArea::setTitle(QWidget *page, const QString &title, const QString &toolTip)
{
    auto it = m_pages.find(page);
    if (it == m_pages.end())
        return;
    it->title = title;
    it->toolTip = toolTip;
    if (isOpen(page)) {
        QTabWidget *tabs = m_tabs[sideOf(page)];
        const int index = tabs->indexOf(page);
        tabs->setTabText(index, title);
        tabs->setTabToolTip(index, toolTip);
    }
}

void WorkArea::place(QWidget *page, Side side, int index)
{
    if (isOpen(page)) {
        QTabWidget *from = m_tabs[sideOf(page)];
        from->removeTab(from->indexOf(page));
    }
    const Page entry = m_pages.value(page);
    QTabWidget *tabs = m_tabs[side];
    if (index < 0 || index > tabs->count())
        index = tabs->count();
    index = tabs->insertTab(index, page, entry.title);
    tabs->setTabToolTip(index, entry.toolTip);
    if (entry.pinned) {
        // No close button: the style may put it on either side.
        for (QTabBar::ButtonPosition pos : {QTabBar::LeftSide, QTabBar::RightSide})
            tabs->tabBar()->setTabButton(index, pos, nullptr);
    }
    updateSides(); // the tab widget shows the page when it is current
}

void WorkArea::showTabMenu(Side side, const QPoint &pos)
{
    QTabWidget *tabs = m_tabs[side];
    const int index = tabs->tabBar()->tabAt(pos);
    QWidget *page = tabs->widget(index);
    if (!page)
        return;
    QMenu menu(this);
    QAction *move = menu.addAction(side == Left ? tr("Move to the Right Side") : tr("Move to the Left Side"));
    move->setObjectName(QStringLiteral("moveToOtherSide"));
    connect(move, &QAction::triggered, this, [this, page] { moveToOtherSide(page); });
    QAction *close = menu.addAction(tr("Close"));
    close->setEnabled(!isPinned(page));
    connect(close, &QAction::triggered, this, [this, page] { closePage(page); });
    menu.exec(tabs->tabBar()->mapToGlobal(pos));
}

void WorkArea::updateSides()
{
    // A side with nothing open leaves its room to the other.
    const bool right = m_tabs[Right]->count() > 0;
    const bool left = m_tabs[Left]->count() > 0 || !right;
    m_tabs[Left]->setVisible(left);
    m_tabs[Right]->setVisible(right);
}

QList<QStringList> WorkArea::layout() const
{
    QList<QStringList> out;
    for (Side side : {Left, Right}) {
        QStringList keys;
        const QTabWidget *tabs = m_tabs[side];
        for (int i = 0; i < tabs->count(); ++i)
            keys.append(keyOf(tabs->widget(i)));
        if (tabs->currentWidget())
            keys.append(kCurrentPrefix + keyOf(tabs->currentWidget()));
        out.append(keys);
    }
    return out;
}

void WorkArea::restoreLayout(const QList<QStringList> &layout)
{
    QWidget *current[2] = {nullptr, nullptr};
    for (Side side : {Left, Right}) {
        int index = 0;
        for (const QString &key : layout.value(side)) {
            if (key.startsWith(kCurrentPrefix)) {
                const QString currentKey = key.mid(kCurrentPrefix.size());
                current[side] = page(currentKey);
                if (!current[side])
                    m_pendingCurrent.insert(currentKey);
                continue;
            }
            if (key.isEmpty())
                continue;
            m_lastSide.insert(key, side);
            if (QWidget *p = page(key)) {
                place(p, side, index);
            } else {
                m_pendingIndex.insert(key, index); // opened there when it comes
            }
            ++index;
        }
    }
    for (Side side : {Left, Right}) {
        if (current[side] && isOpen(current[side]))
            m_tabs[sideOf(current[side])]->setCurrentWidget(current[side]);
    }
    updateSides();
    Q_EMIT pagesChanged();
}

} // namespace md

import Testing

@testable import ViewTree

/// The geometry, the input traits and the lifecycle callbacks are fields of the node: each way of
/// setting or removing them (the subscript, `settingAttachment`, `updatingAttachment`,
/// `removeAttachment`, a declaration) reaches the field the walks read.
@Suite struct FieldKeyTests {
  @Test func theSubscriptSetsTheGeometryTheHitTestReads() throws {
    let button = Node("button")
    let tree = try NodeTree(root: Node("window") { button })
    let frame = NodeFrame(x: 0, y: 0, width: 10, height: 2)
    button[attachment: NodeGeometryKey.self] = NodeGeometry(frame: frame)
    #expect(button.frame == frame)
    #expect(tree.node(at: PointerLocation(x: 5, y: 1)) === button)
    #expect(!button.hasAttachments)  // a field, not an entry of the list
    button.removeAttachment(NodeGeometryKey.self)
    #expect(button.frame == nil)
    #expect(tree.node(at: PointerLocation(x: 5, y: 1)) == nil)
  }

  @Test func theSubscriptSetsTheTraitsFocusReads() throws {
    let field = Node("field")
    let tree = try NodeTree(root: Node("window") { field })
    field[attachment: InputTraitsKey.self] = InputTraits(isFocusable: true)
    try tree.focus(field)
    #expect(tree.focusedNode === field)
    field.updatingAttachment(InputTraitsKey.self) { $0?.isFocusable = false }
    #expect(field.inputTraits?.isFocusable == false)
    #expect(throws: ViewTreeError.self) { try tree.focus(field) }
  }

  @Test func callbacksSetThroughTheSubscriptRunAndCount() throws {
    var attached = 0
    let row = Node("row")
    row[attachment: LifecycleCallbacks.self] = LifecycleCallbackLists(attach: [{ _ in attached += 1 }])
    #expect(row.hasLifecycleCallbacks)
    let tree = try NodeTree(root: Node("window"))
    try tree.root.addChild(row)
    #expect(attached == 1)
    row.removeAttachment(LifecycleCallbacks.self)
    #expect(!row.hasLifecycleCallbacks)
    #expect(tree.root.lifecycleCount == 0)
  }

  @Test func aDeclarationThatDropsAFieldClearsIt() throws {
    let tree = NodeTree(
      declaring: NodeDeclaration("window") {
        NodeDeclaration("button").frame(NodeFrame(x: 0, y: 0, width: 4, height: 1)).focusable()
      })
    let button = try #require(tree.node(id: "button"))
    #expect(button.frame != nil)
    #expect(button.inputTraits?.isFocusable == true)
    tree.update(to: NodeDeclaration("window") { NodeDeclaration("button") })
    #expect(button.frame == nil)
    #expect(button.inputTraits == nil)
  }
}

# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a Codex CLI rollout written by hand for the heldout4 split.

A Turkish developer (articles dropped, "Is possible ...?", "Can we avoid ...?", decisions written
"So: ...") has Codex add revocation to an upgradeable (UUPS) token vesting vault without changing
its storage layout, keep release() under a gas budget, write an upgrade script that is only
simulated on a Sepolia fork, and add an invariant test whose failure is still open at the end.
forge build / test -vvvv traces / --gas-report / inspect storage-layout / script. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.codex_writer import Rollout  # noqa: E402

CWD = "/home/emre/work/vestra-contracts"
r = Rollout(CWD, "2026-02-17T10:04:31", seed="vestra-revoke", repo_url="git@github.com:vestra-labs/vestra-contracts.git")
V = "src/VestingVault.sol"
T = "test/VestingVault.t.sol"
TOML = "foundry.toml"

r.files.update({
    TOML: """[profile.default]
src = "src"
out = "out"
libs = ["lib"]
solc_version = "0.8.24"
optimizer = true
optimizer_runs = 200
via_ir = false
remappings = [
  "@openzeppelin/contracts-upgradeable/=lib/openzeppelin-contracts-upgradeable/contracts/",
  "@openzeppelin/contracts/=lib/openzeppelin-contracts/contracts/",
]

[fuzz]
runs = 256

[invariant]
runs = 256
depth = 500
fail_on_revert = false

[rpc_endpoints]
sepolia = "${SEPOLIA_RPC}"
""",
    V: """// SPDX-License-Identifier: BUSL-1.1
pragma solidity 0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {OwnableUpgradeable} from "@openzeppelin/contracts-upgradeable/access/OwnableUpgradeable.sol";
import {UUPSUpgradeable} from "@openzeppelin/contracts-upgradeable/proxy/utils/UUPSUpgradeable.sol";

/// @title Linear vesting with a cliff, one schedule per id.
contract VestingVault is OwnableUpgradeable, UUPSUpgradeable {
    using SafeERC20 for IERC20;

    struct Schedule {
        address beneficiary;
        uint64 start;
        uint64 cliff;
        uint64 duration;
        uint128 total;
        uint128 released;
    }

    mapping(uint256 => Schedule) public schedules;
    uint256 public nextId;
    IERC20 public token;
    address public treasury;
    uint256[46] private __gap;

    event Created(uint256 indexed id, address indexed beneficiary, uint128 total);
    event Released(uint256 indexed id, uint256 amount);

    error NothingToRelease(uint256 id);
    error NotBeneficiary(uint256 id);

    /// @custom:oz-upgrades-unsafe-allow constructor
    constructor() {
        _disableInitializers();
    }

    function initialize(IERC20 token_, address treasury_, address owner_) external initializer {
        __Ownable_init(owner_);
        __UUPSUpgradeable_init();
        token = token_;
        treasury = treasury_;
    }

    function create(address beneficiary, uint64 start, uint64 cliff, uint64 duration, uint128 total)
        external
        onlyOwner
        returns (uint256 id)
    {
        id = nextId++;
        schedules[id] = Schedule(beneficiary, start, cliff, duration, total, 0);
        token.safeTransferFrom(msg.sender, address(this), total);
        emit Created(id, beneficiary, total);
    }

    function vestedAmount(uint256 id, uint64 at) public view returns (uint256) {
        Schedule memory s = schedules[id];
        if (at < s.start + s.cliff) return 0;
        if (at >= s.start + s.duration) return s.total;
        return uint256(s.total) * (at - s.start) / s.duration;
    }

    function releasable(uint256 id) public view returns (uint256) {
        return vestedAmount(id, uint64(block.timestamp)) - schedules[id].released;
    }

    function release(uint256 id) external {
        Schedule storage s = schedules[id];
        if (msg.sender != s.beneficiary) revert NotBeneficiary(id);
        uint256 amount = releasable(id);
        if (amount == 0) revert NothingToRelease(id);
        s.released += uint128(amount);
        token.safeTransfer(s.beneficiary, amount);
        emit Released(id, amount);
    }

    function _authorizeUpgrade(address) internal override onlyOwner {}
}
""",
    T: """// SPDX-License-Identifier: BUSL-1.1
pragma solidity 0.8.24;

import {Test} from "forge-std/Test.sol";
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {VestingVault} from "../src/VestingVault.sol";
import {MockToken} from "./mocks/MockToken.sol";

contract VestingVaultTest is Test {
    VestingVault vault;
    MockToken token;
    address treasury = makeAddr("treasury");
    address alice = makeAddr("alice");
    uint64 constant T0 = 1_700_000_000;

    function setUp() public {
        token = new MockToken();
        VestingVault impl = new VestingVault();
        vault = VestingVault(address(new ERC1967Proxy(address(impl), abi.encodeCall(VestingVault.initialize, (token, treasury, address(this))))));
        token.mint(address(this), 1_000_000e18);
        token.approve(address(vault), type(uint256).max);
        vm.warp(T0);
    }

    function _create() internal returns (uint256) {
        return vault.create(alice, T0, 90 days, 365 days, 1000e18);
    }
}
""",
})


def forge_build_ok(files: int = 1, secs: str = "1.11s") -> str:
    return f"[⠊] Compiling...\n[⠒] Compiling {files} files with Solc 0.8.24\n[⠢] Solc 0.8.24 finished in {secs}\nCompiler run successful!\n"


# ============================================================================================ turn 1
r.user(
    "Merhaba! We have VestingVault contract, it is behind UUPS proxy on Sepolia since december, and next month we go to mainnet with same code. "
    "Now business wants revoke function: admin can revoke a schedule, the part which is vested until revoke moment stays for beneficiary (he can release it later), "
    "the unvested part goes back to treasury.\n\n"
    "Can we avoid any change of storage layout? On Sepolia proxy there are real schedules from partners for testing, we must upgrade it, not redeploy.\n"
    "Can we avoid to upgrade OpenZeppelin? We are on 5.0.2 and audit was done with this version.\n\n"
    "Please first look the code and tell me how you will do it, don't write yet."
)
r.run("ls -R src test script | head -30", "src:\nVestingVault.sol\n\ntest:\nVestingVault.t.sol\nmocks\n\ntest/mocks:\nMockToken.sol\n\nscript:\nDeployVault.s.sol\n", reasoning="**Surveying the repository**\n\nLayout, config and the vault first.")
r.cat(TOML)
r.cat(V)
r.run("cat lib/openzeppelin-contracts-upgradeable/package.json | grep '\"version\"'; cd lib/openzeppelin-contracts && git describe --tags", "  \"version\": \"5.0.2\",\nv5.0.2\n")
r.run("forge --version && git log --oneline -5", "forge Version: 1.0.0-stable\nCommit SHA: e144b82070619b6e10485c38734b4bb6d1d4c1d0\nBuild Timestamp: 2025-02-13T20:02:34.979686000Z (1739476954)\nBuild Profile: maxperf\n9d41e0b layout file for CI\n3b2f7a4 VestingVault: cliff relative to start\n71e8c02 deploy script (Sepolia)\nc0a9d13 tests: fuzz vestedMonotonic\n5e11b92 initial vault\n")
r.run("grep -n 'onlyOwner' src/VestingVault.sol", "48:        onlyOwner\n74:    function _authorizeUpgrade(address) internal override onlyOwner {}\n")
r.run("cat test/mocks/MockToken.sol", "// SPDX-License-Identifier: MIT\npragma solidity 0.8.24;\n\nimport {ERC20} from \"@openzeppelin/contracts/token/ERC20/ERC20.sol\";\n\ncontract MockToken is ERC20(\"Mock\", \"MCK\") {\n    function mint(address to, uint256 amount) external { _mint(to, amount); }\n}\n")
r.run("forge build", forge_build_ok(48, "3.84s"), secs=4.9)
r.run("forge test", """[⠊] Compiling...
No files changed, compilation skipped

Ran 14 tests for test/VestingVault.t.sol:VestingVaultTest
[PASS] testFuzz_vestedMonotonic(uint64,uint64) (runs: 256, μ: 24518, ~: 24602)
[PASS] test_cannotInitializeTwice() (gas: 15320)
[PASS] test_cliffNothingBefore() (gas: 142118)
[PASS] test_create() (gas: 139774)
[PASS] test_fullyVestedAfterDuration() (gas: 171950)
[PASS] test_linearHalfway() (gas: 170231)
[PASS] test_onlyBeneficiaryReleases() (gas: 143305)
[PASS] test_onlyOwnerCreates() (gas: 16990)
[PASS] test_onlyOwnerUpgrades() (gas: 2041889)
[PASS] test_releaseTwice() (gas: 198842)
[PASS] test_releaseZeroReverts() (gas: 144810)
[PASS] test_scheduleIdsIncrement() (gas: 262118)
[PASS] test_tokenBalanceAfterRelease() (gas: 171440)
[PASS] test_upgradeKeepsSchedules() (gas: 2238871)
Suite result: ok. 14 passed; 0 failed; 0 skipped; finished in 61.32ms (58.90ms CPU time)

Ran 1 test suite in 64.02ms (61.32ms CPU time): 14 tests passed, 0 failed, 0 skipped (14 total tests)
""", secs=2.1)
r.run("forge inspect VestingVault storage-layout --pretty", """| Name      | Type                                            | Slot | Offset | Bytes | Contract                              |
|-----------|-------------------------------------------------|------|--------|-------|---------------------------------------|
| schedules | mapping(uint256 => struct VestingVault.Schedule) | 0    | 0      | 32    | src/VestingVault.sol:VestingVault |
| nextId    | uint256                                         | 1    | 0      | 32    | src/VestingVault.sol:VestingVault |
| token     | contract IERC20                                 | 2    | 0      | 32    | src/VestingVault.sol:VestingVault |
| treasury  | address                                         | 3    | 0      | 20    | src/VestingVault.sol:VestingVault |
| __gap     | uint256[46]                                     | 4    | 0      | 1472  | src/VestingVault.sol:VestingVault |
""")
r.run("cat .github/workflows/test.yml | grep -B2 -A4 'storage'", "      - name: Storage layout unchanged\n        run: |\n          forge inspect VestingVault storage-layout --pretty > /tmp/layout.txt\n          diff <(grep -v __gap /tmp/layout.txt) <(grep -v __gap layout/VestingVault.layout)\n")
r.run("cat script/DeployVault.s.sol | grep -n 'proxy\\|0x'", "14:        // Sepolia proxy: 0x7A3c19bE0d5f6e42A1f6C0c4aD8e2B9F31c05D17\n22:        ERC1967Proxy proxy = new ERC1967Proxy(address(impl), data);\n")
r.say(
    "Plan, nothing written yet:\n\n"
    "- Storage: I will not touch the `Schedule` struct (it is the value of `schedules` at slot 0, and CI diffs the layout against `layout/VestingVault.layout`, ignoring only `__gap`). "
    "I add one new variable `mapping(uint256 => uint64) public revokedAt;` and take its slot from the gap: `__gap` goes from `uint256[46]` to `uint256[45]`, so `revokedAt` sits in slot 4 and the gap starts at slot 5. Existing slots 0-3 stay the same.\n"
    "- `revoke(id)` onlyOwner: stores `revokedAt[id] = now`, sends the unvested part (`total - vestedAmount(id, now)`) to `treasury`. `vestedAmount` caps time at `revokedAt` when set, so the beneficiary can still release what vested until the revoke.\n"
    "- OpenZeppelin stays 5.0.2 (lib/ is at tag v5.0.2), nothing new in lib/.\n\n"
    "The Sepolia proxy is 0x7A3c19bE0d5f6e42A1f6C0c4aD8e2B9F31c05D17 per script/DeployVault.s.sol."
)

# ============================================================================================ turn 2
r.user(
    "So: we take the slot from gap, 46 -> 45, ok for me.\n"
    "One more thing: is possible to keep release() under 60k gas? Partners are paying gas for release and we promised this in docs.\n"
    "Go ahead."
)
r.patch([("update", V, [
    ("    uint256[46] private __gap;\n", "    mapping(uint256 => uint64) public revokedAt;\n    uint256[45] private __gap;\n"),
    ("    event Released(uint256 indexed id, uint256 amount);\n", "    event Released(uint256 indexed id, uint256 amount);\n    event Revoked(uint256 indexed id);\n"),
    ("    error NotBeneficiary(uint256 id);\n", "    error NotBeneficiary(uint256 id);\n    error AlreadyRevoked(uint256 id);\n"),
    ("    function vestedAmount(uint256 id, uint64 at) public view returns (uint256) {\n        Schedule memory s = schedules[id];\n",
     "    function vestedAmount(uint256 id, uint64 at) public view returns (uint256) {\n        Schedule memory s = schedules[id];\n        uint64 r = revokedAt[id];\n        if (r != 0 && at > r) at = r;\n"),
    ("    function _authorizeUpgrade(address) internal override onlyOwner {}\n", """    /// @notice Stops vesting now; the unvested part goes back to the treasury.
    function revoke(uint256 id) external onlyOwner {
        if (revoked[id] != 0) revert AlreadyRevoked(id);
        Schedule storage s = schedules[id];
        uint256 vested = vestedAmount(id, uint64(block.timestamp));
        revokedAt[id] = uint64(block.timestamp);
        uint256 unvested = s.total - vested;
        s.total = uint128(vested);
        if (unvested > 0) token.safeTransfer(treasury, unvested);
        emit Revoked(id);
    }

    function _authorizeUpgrade(address) internal override onlyOwner {}
"""),
])], reasoning="**Implementing revoke**\n\nNew mapping from the gap, cap vesting time at revokedAt.")
r.run("forge build", """[⠊] Compiling...
[⠒] Compiling 1 files with Solc 0.8.24
[⠢] Solc 0.8.24 finished in 1.02s
Error: Compiler run failed:
Error (7576): Undeclared identifier. Did you mean "revokedAt"?
  --> src/VestingVault.sol:97:13:
   |
97 |         if (revoked[id] != 0) revert AlreadyRevoked(id);
   |             ^^^^^^^

""", code=1, secs=1.4)
r.patch([("update", V, [("        if (revoked[id] != 0) revert AlreadyRevoked(id);\n", "        if (revokedAt[id] != 0) revert AlreadyRevoked(id);\n")])])
r.run("forge build", forge_build_ok(), secs=1.3)
r.sed(V, 94, 106)
r.patch([("update", T, [("    function _create() internal returns (uint256) {\n        return vault.create(alice, T0, 90 days, 365 days, 1000e18);\n    }\n", """    function _create() internal returns (uint256) {
        return vault.create(alice, T0, 90 days, 365 days, 1000e18);
    }

    function test_revokeSendsUnvestedToTreasury() public {
        uint256 id = _create();
        vm.warp(T0 + 182 days + 12 hours);
        vault.revoke(id);
        assertEq(token.balanceOf(treasury), 500e18);
    }

    function test_releaseAfterRevoke() public {
        uint256 id = _create();
        vm.warp(T0 + 180 days);
        vm.prank(alice);
        vault.release(id);
        vm.warp(T0 + 200 days);
        vault.revoke(id);
        vm.warp(T0 + 300 days);
        vm.prank(alice);
        vault.release(id);
        assertEq(token.balanceOf(alice), uint256(1000e18) * 200 days / 365 days);
    }

    function test_revokeTwiceReverts() public {
        uint256 id = _create();
        vault.revoke(id);
        vm.expectRevert(abi.encodeWithSelector(VestingVault.AlreadyRevoked.selector, id));
        vault.revoke(id);
    }

    function test_onlyOwnerRevokes() public {
        uint256 id = _create();
        vm.prank(alice);
        vm.expectRevert();
        vault.revoke(id);
    }
""")])])
r.run("forge test", """[⠊] Compiling...
[⠒] Compiling 1 files with Solc 0.8.24
[⠢] Solc 0.8.24 finished in 1.19s
Compiler run successful!

Ran 18 tests for test/VestingVault.t.sol:VestingVaultTest
[PASS] testFuzz_vestedMonotonic(uint64,uint64) (runs: 256, μ: 26893, ~: 26977)
[PASS] test_cannotInitializeTwice() (gas: 15320)
[PASS] test_cliffNothingBefore() (gas: 144474)
[PASS] test_create() (gas: 139774)
[PASS] test_fullyVestedAfterDuration() (gas: 174306)
[PASS] test_linearHalfway() (gas: 172587)
[PASS] test_onlyBeneficiaryReleases() (gas: 145661)
[PASS] test_onlyOwnerCreates() (gas: 16990)
[PASS] test_onlyOwnerRevokes() (gas: 147350)
[PASS] test_onlyOwnerUpgrades() (gas: 2113077)
[FAIL: panic: arithmetic underflow or overflow (0x11)] test_releaseAfterRevoke() (gas: 221946)
[PASS] test_releaseTwice() (gas: 203554)
[PASS] test_releaseZeroReverts() (gas: 147166)
[PASS] test_revokeSendsUnvestedToTreasury() (gas: 188512)
[PASS] test_revokeTwiceReverts() (gas: 176003)
[PASS] test_scheduleIdsIncrement() (gas: 262118)
[PASS] test_tokenBalanceAfterRelease() (gas: 173796)
[PASS] test_upgradeKeepsSchedules() (gas: 2310059)
Suite result: FAILED. 17 passed; 1 failed; 0 skipped; finished in 70.14ms (66.48ms CPU time)

Ran 1 test suite in 72.90ms (70.14ms CPU time): 17 tests passed, 1 failed, 0 skipped (18 total tests)

Failing tests:
Encountered 1 failing test in test/VestingVault.t.sol:VestingVaultTest
[FAIL: panic: arithmetic underflow or overflow (0x11)] test_releaseAfterRevoke() (gas: 221946)

Encountered a total of 1 failing tests, 17 tests succeeded
""", code=1, secs=2.6)
r.run("forge test --mt test_releaseAfterRevoke -vvvv 2>&1 | sed -n '8,40p'", """Traces:
  [221946] VestingVaultTest::test_releaseAfterRevoke()
    ├─ [139511] ERC1967Proxy::create(alice: [0x328809Bc894f92807417D2dAD6b7C998c1aFdac6], 1700000000 [1.7e9], 7776000 [7.776e6], 31536000 [3.153e7], 1000000000000000000000 [1e21])
    │   └─ ← [Return] 0
    ├─ [0] VM::warp(1715552000 [1.715e9])
    ├─ [0] VM::prank(alice: [0x328809Bc894f92807417D2dAD6b7C998c1aFdac6])
    ├─ [33215] ERC1967Proxy::release(0)
    │   ├─ emit Released(id: 0, amount: 493150684931506849315 [4.931e20])
    │   └─ ← [Stop]
    ├─ [0] VM::warp(1717280000 [1.717e9])
    ├─ [16932] ERC1967Proxy::revoke(0)
    │   ├─ [8162] MockToken::transfer(treasury: [0xf43Bca55E8091977223Fa5b776E23528D205dcA8], 452054794520547945206 [4.52e20])
    │   ├─ emit Revoked(id: 0)
    │   └─ ← [Stop]
    ├─ [0] VM::warp(1725920000 [1.725e9])
    ├─ [0] VM::prank(alice: [0x328809Bc894f92807417D2dAD6b7C998c1aFdac6])
    ├─ [4470] ERC1967Proxy::release(0)
    │   ├─ [3701] VestingVault::release(0) [delegatecall]
    │   │   └─ ← [Revert] panic: arithmetic underflow or overflow (0x11)
    │   └─ ← [Revert] panic: arithmetic underflow or overflow (0x11)
    └─ ← [Revert] panic: arithmetic underflow or overflow (0x11)

Suite result: FAILED. 0 passed; 1 failed; 0 skipped; finished in 3.01ms (1.22ms CPU time)
""", code=0, secs=1.9)
r.say(
    "The underflow is in `releasable()`: revoke() shrank `s.total` to the vested amount (547.9e18), and `vestedAmount()` then applies the time cap to the *shrunk* total again: "
    "547.9e18 * 200/365 = 300.2e18, less than the 493.2e18 Alice already released at day 180, so `vested - released` underflows. The cap is applied twice. Fix: revoke() must not change `total`; capping time at `revokedAt` is enough.",
    reasoning="**Reading the trace**\n\nThe second release reverts with 0x11 inside releasable().",
)
r.patch([("update", V, [("        uint256 unvested = s.total - vested;\n        s.total = uint128(vested);\n", "        uint256 unvested = s.total - vested;\n")])])
r.run("forge test", "[⠊] Compiling...\n[⠒] Compiling 1 files with Solc 0.8.24\n[⠢] Solc 0.8.24 finished in 1.17s\nCompiler run successful!\n\nRan 18 tests for test/VestingVault.t.sol:VestingVaultTest\n...\nSuite result: ok. 18 passed; 0 failed; 0 skipped; finished in 69.80ms (66.12ms CPU time)\n\nRan 1 test suite in 71.54ms (69.80ms CPU time): 18 tests passed, 0 failed, 0 skipped (18 total tests)\n", secs=2.5)
r.run("forge test --gas-report 2>&1 | sed -n '/VestingVault contract/,/^$/p'", """| src/VestingVault.sol:VestingVault contract |                 |        |        |        |         |
|--------------------------------------------|-----------------|--------|--------|--------|---------|
| Deployment Cost                            | Deployment Size |        |        |        |         |
| 1487311                                    | 6869            |        |        |        |         |
| Function Name                              | min             | avg    | median | max    | # calls |
| create                                     | 24402           | 118210 | 135806 | 135806 | 17      |
| release                                    | 2846            | 48104  | 61339  | 63418  | 9       |
| revoke                                     | 2614            | 14988  | 16932  | 22117  | 5       |
| revokedAt                                  | 2531            | 2531   | 2531   | 2531   | 1       |
| upgradeToAndCall                           | 8011            | 8011   | 8011   | 8011   | 2       |
| vestedAmount                               | 5260            | 5260   | 5260   | 5260   | 256     |
""", secs=3.2)
r.say("release() is at 63418 max (median 61339), over your 60k. It reads the struct twice (once in `release`, once via `releasable` -> `vestedAmount` copying the whole struct to memory) plus the new `revokedAt` SLOAD. I'll compute everything from one storage read.")
r.patch([("update", V, [
    ("""    function release(uint256 id) external {
        Schedule storage s = schedules[id];
        if (msg.sender != s.beneficiary) revert NotBeneficiary(id);
        uint256 amount = releasable(id);
        if (amount == 0) revert NothingToRelease(id);
        s.released += uint128(amount);
""", """    function release(uint256 id) external {
        Schedule storage s = schedules[id];
        address beneficiary = s.beneficiary;
        if (msg.sender != beneficiary) revert NotBeneficiary(id);
        uint64 at = uint64(block.timestamp);
        uint64 r = revokedAt[id];
        if (r != 0 && at > r) at = r;
        uint256 amount = _vested(s.start, s.cliff, s.duration, s.total, at) - s.released;
        if (amount == 0) revert NothingToRelease(id);
        unchecked {
            // released + amount <= total, which fits in uint128
            s.released += uint128(amount);
        }
"""),
    ("""        Schedule memory s = schedules[id];
        uint64 r = revokedAt[id];
        if (r != 0 && at > r) at = r;
        if (at < s.start + s.cliff) return 0;
        if (at >= s.start + s.duration) return s.total;
        return uint256(s.total) * (at - s.start) / s.duration;
    }
""", """        Schedule storage s = schedules[id];
        uint64 r = revokedAt[id];
        if (r != 0 && at > r) at = r;
        return _vested(s.start, s.cliff, s.duration, s.total, at);
    }

    function _vested(uint64 start, uint64 cliff, uint64 duration, uint128 total, uint64 at) private pure returns (uint256) {
        if (at < start + cliff) return 0;
        if (at >= start + duration) return total;
        return uint256(total) * (at - start) / duration;
    }
"""),
])])
r.run("forge test --gas-report 2>&1 | grep -E '^\\| (release|revoke|vestedAmount) '", "| release                                    | 2790            | 41877  | 52214  | 54980  | 9       |\n| revoke                                     | 2614            | 14811  | 16755  | 21940  | 5       |\n| vestedAmount                               | 4122            | 4122   | 4122   | 4122   | 256     |\n", secs=3.1)
r.run("forge test 2>&1 | tail -2", "Ran 1 test suite in 70.02ms (68.11ms CPU time): 18 tests passed, 0 failed, 0 skipped (18 total tests)\n", secs=2.4)
r.run("grep -n 'revokedAt\\|__gap' src/VestingVault.sol", "26:    mapping(uint256 => uint64) public revokedAt;\n27:    uint256[45] private __gap;\n63:        uint64 r = revokedAt[id];\n84:        uint64 r = revokedAt[id];\n99:        if (revokedAt[id] != 0) revert AlreadyRevoked(id);\n102:        revokedAt[id] = uint64(block.timestamp);\n")
r.run("git diff --stat", " src/VestingVault.sol    | 52 ++++++++++++++++++++++++++++++++++++++++------\n test/VestingVault.t.sol | 37 +++++++++++++++++++++++++++++++++\n 2 files changed, 83 insertions(+), 6 deletions(-)\n")
r.say(
    "Done:\n"
    "- `revoke(id)` (onlyOwner): caps vesting at `revokedAt[id]`, sends `total - vested` to treasury, `total` itself unchanged (changing it caused the 0x11 underflow in the second release). Reverts `AlreadyRevoked` on a second call.\n"
    "- Storage: `revokedAt` in slot 4, `__gap` now `uint256[45]` from slot 5; slots 0-3 unchanged.\n"
    "- Gas: release() max 63418 -> 54980 (one storage read of the struct, `unchecked` increment), so under 60k. revoke() max 21940.\n"
    "- 18 tests pass, OpenZeppelin still 5.0.2."
)

# ============================================================================================ turn 3
r.user("Çok iyi, thank you!")
r.say("Rica ederim!")

# ============================================================================================ turn 3b
r.user("CI has also `forge fmt --check`, please run it.")
r.run("forge fmt --check", """Diff in src/VestingVault.sol:
100 100 |         Schedule storage s = schedules[id];
101 101 |         uint256 vested = vestedAmount(id, uint64(block.timestamp));
...
113     |-    function _vested(uint64 start, uint64 cliff, uint64 duration, uint128 total, uint64 at) private pure returns (uint256) {
    113 |+    function _vested(uint64 start, uint64 cliff, uint64 duration, uint128 total, uint64 at)
    114 |+        private
    115 |+        pure
    116 |+        returns (uint256)
    117 |+    {
""", code=1)
r.run("forge fmt && forge fmt --check && echo fmt-ok", "fmt-ok\n")
r.run("forge test 2>&1 | tail -1", "Ran 1 test suite in 69.77ms (67.30ms CPU time): 18 tests passed, 0 failed, 0 skipped (18 total tests)\n", secs=2.3)
r.say("forge fmt only re-wrapped the `_vested` signature; fmt check passes, tests still 18/18.")

# ============================================================================================ turn 3c
r.user("And coverage? Auditor will ask for it.")
r.run("forge coverage", """Warning: optimizer settings and `viaIR` have been disabled for accurate coverage reports.
If you encounter "stack too deep" errors, consider using `--ir-minimum` which enables `viaIR` with minimum optimization resolving most of the errors
Analysing contracts...
Running tests...
Error: Compiler run failed:
Error: Stack too deep. Try compiling with `--via-ir` (cli) or the equivalent `viaIR: true` (standard JSON) while enabling the optimizer. Otherwise, try removing local variables.
   --> src/VestingVault.sol:88:26:
    |
 88 |         uint256 amount = _vested(s.start, s.cliff, s.duration, s.total, at) - s.released;
    |                          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
""", code=1, secs=6.0)
r.run("forge coverage --ir-minimum --report summary 2>&1 | sed -n '/File/,$p'", """| File                      | % Lines         | % Statements    | % Branches      | % Funcs         |
|---------------------------|-----------------|-----------------|-----------------|-----------------|
| script/DeployVault.s.sol  | 0.00% (0/9)     | 0.00% (0/11)    | 100.00% (0/0)   | 0.00% (0/1)     |
| script/UpgradeVault.s.sol | 0.00% (0/8)     | 0.00% (0/10)    | 100.00% (0/0)   | 0.00% (0/1)     |
| src/VestingVault.sol      | 96.30% (52/54)  | 95.65% (66/69)  | 88.89% (16/18)  | 100.00% (11/11) |
| Total                     | 74.29% (52/70)  | 73.33% (66/90)  | 88.89% (16/18)  | 84.62% (11/13)  |
""", secs=14.2)
r.say("Plain `forge coverage` disables the optimizer and hits 'Stack too deep' in release() (line 88, too many locals without the optimizer); with `--ir-minimum` it runs. src/VestingVault.sol: 96.30% lines (52/54), 88.89% branches (16/18), all 11 functions. Scripts are not covered by tests, as usual.")

# ============================================================================================ turn 3d
r.user("What is deployment cost now compared with before? For mainnet we have budget.")
r.run("git stash -q && forge test --gas-report 2>&1 | grep -A1 'Deployment Cost' | tail -1; git stash pop -q", "| 1391774                                    | 6436            |        |        |        |         |\n", secs=5.0)
r.run("forge test --gas-report 2>&1 | grep -A1 'Deployment Cost' | tail -1", "| 1487311                                    | 6869            |        |        |        |         |\n", secs=3.0)
r.say("Implementation deployment: 1,391,774 gas (6436 bytes) before, 1,487,311 gas (6869 bytes) now, +95,537 gas. Far under the 24,576-byte contract size limit. The proxy is not redeployed, so on mainnet it is only this implementation plus the Safe's upgrade call.")

# ============================================================================================ turn 4
r.user("Our CI compares layout with layout/VestingVault.layout. Please run same check and update file if only the gap line and new line is different.")
r.run("forge inspect VestingVault storage-layout --pretty > /tmp/layout.txt && diff layout/VestingVault.layout /tmp/layout.txt", """7c7,8
< | __gap     | uint256[46]                                     | 4    | 0      | 1472  | src/VestingVault.sol:VestingVault |
---
> | revokedAt | mapping(uint256 => uint64)                      | 4    | 0      | 32    | src/VestingVault.sol:VestingVault |
> | __gap     | uint256[45]                                     | 5    | 0      | 1440  | src/VestingVault.sol:VestingVault |
""", code=1)
r.run("head -3 layout/VestingVault.layout", "| Name      | Type                                            | Slot | Offset | Bytes | Contract                              |\n|-----------|-------------------------------------------------|------|--------|-------|---------------------------------------|\n| schedules | mapping(uint256 => struct VestingVault.Schedule) | 0    | 0      | 32    | src/VestingVault.sol:VestingVault |\n")
r.run("cp /tmp/layout.txt layout/VestingVault.layout && diff <(grep -v __gap /tmp/layout.txt) <(grep -v __gap layout/VestingVault.layout) && echo same", "same\n")
r.say("Only the gap line and the new `revokedAt` line differ (slot 4, gap now 1440 bytes from slot 5), so I updated layout/VestingVault.layout; the CI diff passes.")

# ============================================================================================ turn 5
r.user(
    "Good. Now we need upgrade script for Sepolia proxy. Can we avoid openzeppelin-foundry-upgrades library? It is not in audit scope, I prefer plain upgradeToAndCall.\n"
    "Important: don't broadcast anything!! I will broadcast myself from our Safe multisig, the owner of proxy is the Safe. Only simulate on fork."
)
r.run("cat script/DeployVault.s.sol | head -12", "// SPDX-License-Identifier: BUSL-1.1\npragma solidity 0.8.24;\n\nimport {Script, console} from \"forge-std/Script.sol\";\nimport {ERC1967Proxy} from \"@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol\";\nimport {VestingVault} from \"../src/VestingVault.sol\";\nimport {MockToken} from \"../test/mocks/MockToken.sol\";\n\ncontract DeployVault is Script {\n    function run() external {\n        vm.startBroadcast();\n        // Sepolia proxy: 0x7A3c19bE0d5f6e42A1f6C0c4aD8e2B9F31c05D17\n")
r.run("cast call 0x7A3c19bE0d5f6e42A1f6C0c4aD8e2B9F31c05D17 'owner()(address)' --rpc-url sepolia && cast code 0x9b1F4a0E3c52d8E7A6f1C2b0D94e5A37c8E21f60 --rpc-url sepolia | cut -c1-24", "0x9b1F4a0E3c52d8E7A6f1C2b0D94e5A37c8E21f60\n0x608060405273ffffffffff\n", secs=1.8)
r.patch([("add", "script/UpgradeVault.s.sol", """// SPDX-License-Identifier: BUSL-1.1
pragma solidity 0.8.24;

import {Script, console} from "forge-std/Script.sol";
import {VestingVault} from "../src/VestingVault.sol";

/// Deploys the new implementation and prints the Safe transaction for the upgrade.
/// The proxy owner is the Safe, so the upgrade itself is NOT sent from here.
contract UpgradeVault is Script {
    address constant PROXY = 0x7A3c19bE0d5f6e42A1f6C0c4aD8e2B9F31c05D17;

    function run() external returns (address impl) {
        vm.startBroadcast();
        impl = address(new VestingVault());
        vm.stopBroadcast();
        bytes memory data = abi.encodeCall(VestingVault(PROXY).upgradeToAndCall, (impl, ""));
        console.log("new implementation", impl);
        console.log("Safe tx to", PROXY);
        console.logBytes(data);
    }
}
""")])
r.run("forge script script/UpgradeVault.s.sol --fork-url sepolia -vv", """[⠊] Compiling...
[⠒] Compiling 1 files with Solc 0.8.24
[⠢] Solc 0.8.24 finished in 1.21s
Compiler run successful!
Script ran successfully.

== Return ==
impl: address 0x5FbDB2315678afecb367f032d93F642f64180aa3

== Logs ==
  new implementation 0x5FbDB2315678afecb367f032d93F642f64180aa3
  Safe tx to 0x7A3c19bE0d5f6e42A1f6C0c4aD8e2B9F31c05D17
  0x4f1ef2860000000000000000000000005fbdb2315678afecb367f032d93f642f64180aa300000000000000000000000000000000000000000000000000000000000000400000000000000000000000000000000000000000000000000000000000000000

## Setting up 1 EVM.

==========================

Chain 11155111

Estimated gas price: 2.000000018 gwei

Estimated total gas used for script: 1933504

Estimated amount required: 0.003867008034803072 ETH

==========================

SIMULATION COMPLETE. To broadcast these transactions, add --broadcast and wallet configuration(s) to the previous command. See forge script --help for more.
""", secs=8.2)
r.patch([("add", "test/UpgradeFork.t.sol", """// SPDX-License-Identifier: BUSL-1.1
pragma solidity 0.8.24;

import {Test, console} from "forge-std/Test.sol";
import {VestingVault} from "../src/VestingVault.sol";

/// Run with --fork-url sepolia: upgrades the live proxy as its owner (the Safe) and checks every schedule survives.
contract UpgradeForkTest is Test {
    VestingVault constant PROXY = VestingVault(0x7A3c19bE0d5f6e42A1f6C0c4aD8e2B9F31c05D17);

    function test_upgradeKeepsLiveSchedules() public {
        uint256 n = PROXY.nextId();
        bytes32[] memory before = new bytes32[](n);
        for (uint256 i; i < n; i++) before[i] = keccak256(abi.encode(PROXY.schedules(i)));
        address impl = address(new VestingVault());
        vm.prank(PROXY.owner());
        PROXY.upgradeToAndCall(impl, "");
        for (uint256 i; i < n; i++) assertEq(keccak256(abi.encode(PROXY.schedules(i))), before[i]);
        assertEq(PROXY.revokedAt(0), 0);
        console.log("schedules checked", n);
    }
}
""")])
r.run("forge test --fork-url sepolia --mc UpgradeForkTest -vv", """[⠊] Compiling...
[⠒] Compiling 1 files with Solc 0.8.24
[⠢] Solc 0.8.24 finished in 1.30s
Compiler run successful!

Ran 1 test for test/UpgradeFork.t.sol:UpgradeForkTest
[FAIL: EvmError: Revert] test_upgradeKeepsLiveSchedules() (gas: 0)
Logs:
  Error: Member "schedules" returns 6 values, abi.encode of a tuple is not supported in this context

Suite result: FAILED. 0 passed; 1 failed; 0 skipped; finished in 1.84s (1.80s CPU time)
""", code=1, secs=4.1)
r.say("My test was wrong: the public getter of a struct mapping returns the six fields as a tuple, not a struct, so `abi.encode(PROXY.schedules(i))` does not work. Destructuring the tuple instead.", reasoning="**Fixing the fork test**")
r.patch([("update", "test/UpgradeFork.t.sol", [
    ("        for (uint256 i; i < n; i++) before[i] = keccak256(abi.encode(PROXY.schedules(i)));\n", "        for (uint256 i; i < n; i++) before[i] = _hash(i);\n"),
    ("        for (uint256 i; i < n; i++) assertEq(keccak256(abi.encode(PROXY.schedules(i))), before[i]);\n", "        for (uint256 i; i < n; i++) assertEq(_hash(i), before[i]);\n"),
    ("        console.log(\"schedules checked\", n);\n    }\n", "        console.log(\"schedules checked\", n);\n    }\n\n    function _hash(uint256 i) internal view returns (bytes32) {\n        (address b, uint64 s, uint64 c, uint64 d, uint128 t, uint128 r) = PROXY.schedules(i);\n        return keccak256(abi.encode(b, s, c, d, t, r));\n    }\n"),
])])
r.run("forge test --fork-url sepolia --mc UpgradeForkTest -vv", """[⠊] Compiling...
[⠒] Compiling 1 files with Solc 0.8.24
[⠢] Solc 0.8.24 finished in 1.28s
Compiler run successful!

Ran 1 test for test/UpgradeFork.t.sol:UpgradeForkTest
[PASS] test_upgradeKeepsLiveSchedules() (gas: 2518204)
Logs:
  schedules checked 37

Suite result: ok. 1 passed; 0 failed; 0 skipped; finished in 6.72s (5.90s CPU time)
""", secs=8.0)
r.run("grep -n 'fork' .github/workflows/test.yml foundry.toml", "")
r.say(
    "Upgrade script: script/UpgradeVault.s.sol deploys only the new implementation and prints the Safe transaction (`upgradeToAndCall(impl, \"\")` to the proxy, calldata 0x4f1ef286...). No openzeppelin-foundry-upgrades, nothing broadcast: "
    "I only ran it as a simulation on a Sepolia fork (chain 11155111, ~1.93M gas estimated for the implementation deploy).\n\n"
    "Fork test test/UpgradeFork.t.sol upgrades the live proxy as its owner and checks all 37 existing schedules are byte-identical afterwards: passes. It needs `--fork-url sepolia`, so CI (which has no fork step) does not run it; I left CI as is."
)

# ============================================================================================ turn 6
r.user("Revoked event must have more info for our indexer: id, vested amount and unvested amount. Indexer team (Burak) already wrote subgraph for this signature: Revoked(uint256 indexed id, uint256 vested, uint256 unvested).")
r.patch([("update", V, [
    ("    event Revoked(uint256 indexed id);\n", "    event Revoked(uint256 indexed id, uint256 vested, uint256 unvested);\n"),
    ("        emit Revoked(id);\n", "        emit Revoked(id, vested, unvested);\n"),
])])
r.patch([("update", T, [("        vault.revoke(id);\n        assertEq(token.balanceOf(treasury), 500e18);\n", "        vm.expectEmit(address(vault));\n        emit VestingVault.Revoked(id, 500e18, 500e18);\n        vault.revoke(id);\n        assertEq(token.balanceOf(treasury), 500e18);\n")])])
r.run("forge test 2>&1 | tail -2", "Ran 1 test suite in 73.11ms (70.44ms CPU time): 18 tests passed, 0 failed, 0 skipped (18 total tests)\n", secs=2.5)
r.run("grep -n 'Revoked' ../vestra-subgraph/subgraph.yaml", "41:        - event: Revoked(indexed uint256,uint256,uint256)\n42:          handler: handleRevoked\n")
r.run("cast sig-event 'Revoked(uint256,uint256,uint256)'", "0x3b9c5f4d1fbc4bd2a29e23c20c7c5b9f0f4b36e7f1a27d0d1c8e33e1e8bd5a2c\n")
r.say("Revoked is now `Revoked(uint256 indexed id, uint256 vested, uint256 unvested)`, same signature as Burak's subgraph (topic0 0x3b9c5f4d...5a2c). 18 tests pass.")

# ============================================================================================ turn 7
r.user("Thanks. Last thing today: invariant test. Total released to beneficiaries plus returned to treasury must never be more than total allocated. With handler please, our other repo has example in test/handlers.")
r.run("ls ../vestra-staking/test/handlers && sed -n '1,30p' ../vestra-staking/test/handlers/StakingHandler.sol", "StakingHandler.sol\n// SPDX-License-Identifier: BUSL-1.1\npragma solidity 0.8.24;\n\nimport {Test} from \"forge-std/Test.sol\";\nimport {Staking} from \"../../src/Staking.sol\";\n\ncontract StakingHandler is Test {\n    Staking public staking;\n    uint256 public ghost_deposited;\n    uint256 public ghost_withdrawn;\n\n    constructor(Staking s) { staking = s; }\n\n    function deposit(uint256 amount) external {\n        amount = bound(amount, 1, 1e24);\n        ...\n")
r.patch([("add", "test/handlers/VaultHandler.sol", """// SPDX-License-Identifier: BUSL-1.1
pragma solidity 0.8.24;

import {Test} from "forge-std/Test.sol";
import {VestingVault} from "../../src/VestingVault.sol";
import {MockToken} from "../mocks/MockToken.sol";

contract VaultHandler is Test {
    VestingVault public vault;
    MockToken public token;
    address public treasury;
    uint256 public ghost_allocated;
    uint256 public ghost_released;
    uint256 public ghost_returned;
    uint256[] public ids;

    constructor(VestingVault v, MockToken t, address tr) { vault = v; token = t; treasury = tr; }

    function create(uint128 total, uint64 duration) external {
        total = uint128(bound(total, 1, 1e24));
        duration = uint64(bound(duration, 1 days, 4 * 365 days));
        token.mint(address(this), total);
        token.approve(address(vault), total);
        ids.push(vault.create(address(this), uint64(block.timestamp), 0, duration, total));
        ghost_allocated += total;
    }

    function warp(uint256 dt) external { vm.warp(block.timestamp + bound(dt, 0, 30 days)); }

    function release(uint256 i) external {
        if (ids.length == 0) return;
        uint256 id = ids[i % ids.length];
        uint256 amount = vault.releasable(id);
        if (amount == 0) return;
        vault.release(id);
        ghost_released += amount;
    }

    function revoke(uint256 i) external {
        if (ids.length == 0) return;
        uint256 id = ids[i % ids.length];
        if (vault.revokedAt(id) != 0) return;
        (,,,, uint128 total,) = vault.schedules(id);
        uint256 unvested = total - vault.vestedAmount(id, uint64(block.timestamp));
        vm.prank(vault.owner());
        vault.revoke(id);
        ghost_returned += unvested;
    }
}
"""), ("add", "test/VestingVault.invariant.t.sol", """// SPDX-License-Identifier: BUSL-1.1
pragma solidity 0.8.24;

import {Test} from "forge-std/Test.sol";
import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {VestingVault} from "../src/VestingVault.sol";
import {MockToken} from "./mocks/MockToken.sol";
import {VaultHandler} from "./handlers/VaultHandler.sol";

contract VestingVaultInvariantTest is Test {
    VaultHandler handler;

    function setUp() public {
        MockToken token = new MockToken();
        VestingVault impl = new VestingVault();
        VestingVault vault = VestingVault(address(new ERC1967Proxy(address(impl), abi.encodeCall(VestingVault.initialize, (token, makeAddr("treasury"), address(this))))));
        handler = new VaultHandler(vault, token, makeAddr("treasury"));
        vm.startPrank(address(this));
        targetContract(address(handler));
    }

    function invariant_paidOutNeverExceedsAllocated() public view {
        assertLe(handler.ghost_released() + handler.ghost_returned(), handler.ghost_allocated(), "paid out > allocated");
    }
}
""")])
r.run("forge test --mc VestingVaultInvariantTest", """[⠊] Compiling...
[⠒] Compiling 3 files with Solc 0.8.24
[⠢] Solc 0.8.24 finished in 1.44s
Compiler run successful!

Ran 1 test for test/VestingVault.invariant.t.sol:VestingVaultInvariantTest
[FAIL: revert: Ownable: caller is not the owner]
	[Sequence]
		sender=0x0000000000000000000000000000000000000f47 addr=[test/handlers/VaultHandler.sol:VaultHandler]0x2e234DAe75C793f67A35089C9d99245E1C58470b calldata=create(uint128,uint64) args=[1, 86400 [8.64e4]]
 invariant_paidOutNeverExceedsAllocated() (runs: 1, calls: 1, reverts: 1)
Suite result: FAILED. 0 passed; 1 failed; 0 skipped; finished in 12.44ms (9.80ms CPU time)

Ran 1 test suite in 14.01ms (12.44ms CPU time): 0 tests passed, 1 failed, 0 skipped (1 total tests)
""", code=1, secs=2.2)
r.say("Everything reverts because `create` is onlyOwner and the handler is not the owner (fail_on_revert is false, but this run still reports the owner revert as the failing call). I'll make the handler the vault owner in setUp and drop the prank in revoke.")
r.patch([("update", "test/VestingVault.invariant.t.sol", [("        handler = new VaultHandler(vault, token, makeAddr(\"treasury\"));\n        vm.startPrank(address(this));\n", "        handler = new VaultHandler(vault, token, makeAddr(\"treasury\"));\n        vault.transferOwnership(address(handler));\n")]),
         ("update", "test/handlers/VaultHandler.sol", [("        vm.prank(vault.owner());\n        vault.revoke(id);\n", "        vault.revoke(id);\n")])])
r.run("forge test --mc VestingVaultInvariantTest", """[⠊] Compiling...
[⠒] Compiling 2 files with Solc 0.8.24
[⠢] Solc 0.8.24 finished in 1.39s
Compiler run successful!

Ran 1 test for test/VestingVault.invariant.t.sol:VestingVaultInvariantTest
[FAIL: paid out > allocated: 1000000000000000000001 > 1000000000000000000000]
	[Sequence] (original: 41, shrunk: 4)
		sender=0x00000000000000000000000000000000000011e1 addr=[test/handlers/VaultHandler.sol:VaultHandler]0x2e234DAe75C793f67A35089C9d99245E1C58470b calldata=create(uint128,uint64) args=[1000000000000000000000 [1e21], 259200 [2.592e5]]
		sender=0x0000000000000000000000000000000000000a3c addr=[test/handlers/VaultHandler.sol:VaultHandler]0x2e234DAe75C793f67A35089C9d99245E1C58470b calldata=warp(uint256) args=[86401 [8.64e4]]
		sender=0x0000000000000000000000000000000000001b07 addr=[test/handlers/VaultHandler.sol:VaultHandler]0x2e234DAe75C793f67A35089C9d99245E1C58470b calldata=revoke(uint256) args=[0]
		sender=0x0000000000000000000000000000000000000f47 addr=[test/handlers/VaultHandler.sol:VaultHandler]0x2e234DAe75C793f67A35089C9d99245E1C58470b calldata=release(uint256) args=[0]
 invariant_paidOutNeverExceedsAllocated() (runs: 12, calls: 6000, reverts: 1874)
Suite result: FAILED. 0 passed; 1 failed; 0 skipped; finished in 1.92s (1.89s CPU time)

Ran 1 test suite in 1.95s (1.92s CPU time): 0 tests passed, 1 failed, 0 skipped (1 total tests)
""", code=1, secs=3.1)
r.run("forge test --mc VestingVaultInvariantTest 2>&1 | grep -E 'FAIL|shrunk'", "[FAIL: paid out > allocated: 1000000000000000000001 > 1000000000000000000000]\n\t[Sequence] (original: 37, shrunk: 4)\n", code=0, secs=3.0)
r.run("forge test --mc VestingVaultInvariantTest -vvvv 2>&1 | grep -E 'emit (Revoked|Released)|transfer\\(' | head", "    │   ├─ [8162] MockToken::transfer(treasury: [0xf43Bca55E8091977223Fa5b776E23528D205dcA8], 666662808641975308642 [6.666e20])\n    │   ├─ emit Revoked(id: 0, vested: 333337191358024691358 [3.333e20], unvested: 666662808641975308642 [6.666e20])\n    │   ├─ emit Released(id: 0, amount: 333337191358024691358 [3.333e20])\n", secs=3.4)
r.say(
    "Not solved yet. The shrunk sequence is create(1000e18, 3 days) -> warp 86401 s -> revoke -> release, and paid out is 1 wei more than allocated (1000000000000000000001 > 1e21). "
    "The vault's own numbers add up: the Revoked event has vested 333337191358024691358 + unvested 666662808641975308642 = exactly 1000e18, and release paid the vested part. "
    "So my guess is the handler's ghost accounting (it reads `releasable()` and `vestedAmount()` outside the vault calls), i.e. a bug in the test, but I have not confirmed it, and a real 1-wei over-payment in revoke() is not ruled out. "
    "The invariant test is still failing; I did not change the vault for it."
)

r.user("OK, tomorrow we look together, don't change anything more today. Please commit everything except the invariant test files, they stay uncommitted.")
r.run("git status --short", " M layout/VestingVault.layout\n M src/VestingVault.sol\n M test/VestingVault.t.sol\n?? script/UpgradeVault.s.sol\n?? test/UpgradeFork.t.sol\n?? test/VestingVault.invariant.t.sol\n?? test/handlers/\n")
r.run("git add src/VestingVault.sol test/VestingVault.t.sol test/UpgradeFork.t.sol script/UpgradeVault.s.sol layout/VestingVault.layout && git commit -qm 'VestingVault: revoke (slot from gap), release under 60k gas, upgrade script + fork test' && git status --short && git log --oneline -1",
      "?? test/VestingVault.invariant.t.sol\n?? test/handlers/\nf2c8e71 VestingVault: revoke (slot from gap), release under 60k gas, upgrade script + fork test\n")
r.say("Committed f2c8e71 (vault, tests, upgrade script, fork test, layout file). test/VestingVault.invariant.t.sol and test/handlers/ stay uncommitted, and the invariant failure (1 wei over after create -> warp -> revoke -> release) is open for tomorrow.")

r.save(HERE / "session.jsonl")

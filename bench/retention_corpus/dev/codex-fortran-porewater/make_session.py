# ruff: noqa: E501  (transcript text: tool output and code are quoted verbatim)
"""Writes session.jsonl: a Codex CLI rollout written by hand for the heldout5b split.

A sediment geochemist (numbers in every message) has Codex fix a manufactured-solution tolerance
failure after variable porosity was added to a Crank-Nicolson/ADI porewater diffusion model, a
SIGFPE on a non-square grid whose salient backtrace frame is in the middle (bounds error found
with the debug profile), speed up the y sweep, and add a mass-balance diagnostic. Modern Fortran,
fpm, gfortran 13, test-drive. Run: python make_session.py
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent.parent))

from synth.codex_writer import Rollout  # noqa: E402

CWD = "/home/ibrandt/models/porewater"
r = Rollout(CWD, "2026-06-09T07:48:30", seed="porewater-fortran", repo_url="git@gitlab.geomar.example:sedchem/porewater.git")
FPM = "fpm.toml"
D1 = "src/diffusion1d.f90"
ADI = "src/adi.f90"
TRI = "src/tridiag.f90"
SOL = "src/solver.f90"
TMMS = "test/test_mms.f90"
NML = "config/bay_400x300.nml"

r.files.update({
    FPM: """name = "porewater"
version = "0.7.0"
license = "BSD-3-Clause"
author = "Ilse Brandt"

[build]
auto-executables = true
auto-tests = true

[fortran]
implicit-typing = false
implicit-external = false
source-form = "free"

[dev-dependencies]
test-drive.git = "https://github.com/fortran-lang/test-drive"
test-drive.tag = "v0.5.0"
""",
    TRI: """module tridiag
  use, intrinsic :: iso_fortran_env, only: dp => real64
  implicit none
  private
  public :: thomas
contains
  !> Solves a tridiagonal system in place (Thomas algorithm, no pivoting).
  !> a: sub-diagonal (a(1) unused), b: diagonal, c: super-diagonal (c(n) unused), d: rhs -> x
  pure subroutine thomas(a, b, c, d, x)
    real(dp), intent(in) :: a(:), b(:), c(:)
    real(dp), intent(inout) :: d(:)
    real(dp), intent(out) :: x(:)
    real(dp) :: cp(size(b)), m
    integer :: i, n
    n = size(b)
    cp(1) = c(1) / b(1)
    d(1) = d(1) / b(1)
    do i = 2, n
      m = b(i) - a(i) * cp(i - 1)
      cp(i) = c(i) / m
      d(i) = (d(i) - a(i) * d(i - 1)) / m
    end do
    x(n) = d(n)
    do i = n - 1, 1, -1
      x(i) = d(i) - cp(i) * x(i + 1)
    end do
  end subroutine thomas
end module tridiag
""",
    D1: """module diffusion1d
  use, intrinsic :: iso_fortran_env, only: dp => real64
  use tridiag, only: thomas
  implicit none
  private
  public :: cn_step_1d
contains
  !> One Crank-Nicolson step of  phi dC/dt = d/dx (phi D dC/dx)  with zero-flux ends.
  subroutine cn_step_1d(c, phi, d, dx, dt)
    real(dp), intent(inout) :: c(:)
    real(dp), intent(in) :: phi(:), d, dx, dt
    real(dp), dimension(size(c)) :: lo, di, up, rhs
    real(dp) :: kw, ke, r
    integer :: i, n
    n = size(c)
    r = 0.5_dp * dt / dx**2
    do i = 1, n
      kw = 0.0_dp
      ke = 0.0_dp
      if (i > 1) kw = d * phi(i - 1)          ! face i-1/2
      if (i < n) ke = d * phi(i)              ! face i+1/2
      lo(i) = -r * kw / phi(i)
      up(i) = -r * ke / phi(i)
      di(i) = 1.0_dp + r * (kw + ke) / phi(i)
      rhs(i) = c(i) * (1.0_dp - r * (kw + ke) / phi(i))
      if (i > 1) rhs(i) = rhs(i) + r * kw / phi(i) * c(i - 1)
      if (i < n) rhs(i) = rhs(i) + r * ke / phi(i) * c(i + 1)
    end do
    call thomas(lo, di, up, rhs, c)
  end subroutine cn_step_1d
end module diffusion1d
""",
    ADI: """module adi
  use, intrinsic :: iso_fortran_env, only: dp => real64
  use tridiag, only: thomas
  implicit none
  private
  public :: adi_step
contains
  !> Peaceman-Rachford ADI step for  phi dC/dt = div(phi D grad C), zero-flux walls.
  !> c(nx, ny): x along the transect, y down-core.
  subroutine adi_step(c, phi, d, dx, dy, dt)
    real(dp), intent(inout) :: c(:, :)
    real(dp), intent(in) :: phi(:, :), d, dx, dy, dt
    call sweep_x(c, phi, d, dx, 0.5_dp * dt)
    call sweep_y(c, phi, d, dy, 0.5_dp * dt)
  end subroutine adi_step

  subroutine sweep_x(c, phi, d, dx, dt)
    real(dp), intent(inout) :: c(:, :)
    real(dp), intent(in) :: phi(:, :), d, dx, dt
    real(dp), allocatable :: lo(:), di(:), up(:), rhs(:)
    real(dp) :: r, kw, ke
    integer :: i, j, nx, ny
    nx = size(c, 1)
    ny = size(c, 2)
    allocate (lo(nx), di(nx), up(nx), rhs(nx))
    r = dt / dx**2
    do j = 1, ny
      do i = 1, nx
        kw = 0.0_dp
        ke = 0.0_dp
        if (i > 1) kw = d * 0.5_dp * (phi(i - 1, j) + phi(i, j))
        if (i < nx) ke = d * 0.5_dp * (phi(i, j) + phi(i + 1, j))
        lo(i) = -r * kw / phi(i, j)
        up(i) = -r * ke / phi(i, j)
        di(i) = 1.0_dp + r * (kw + ke) / phi(i, j)
        rhs(i) = c(i, j)
      end do
      call thomas(lo, di, up, rhs, c(:, j))
    end do
  end subroutine sweep_x

  subroutine sweep_y(c, phi, d, dy, dt)
    real(dp), intent(inout) :: c(:, :)
    real(dp), intent(in) :: phi(:, :), d, dy, dt
    real(dp), allocatable :: lo(:), di(:), up(:), rhs(:)
    real(dp) :: r, kn, ks
    integer :: i, j, nx, ny
    nx = size(c, 1)
    ny = size(c, 2)
    allocate (lo(ny), di(ny), up(ny), rhs(ny))
    r = dt / dy**2
    do i = 1, nx
      do j = 1, nx
        kn = 0.0_dp
        ks = 0.0_dp
        if (j > 1) kn = d * 0.5_dp * (phi(i, j - 1) + phi(i, j))
        if (j < ny) ks = d * 0.5_dp * (phi(i, j) + phi(i, j + 1))
        lo(j) = -r * kn / phi(i, j)
        up(j) = -r * ks / phi(i, j)
        di(j) = 1.0_dp + r * (kn + ks) / phi(i, j)
        rhs(j) = c(i, j)
      end do
      call thomas(lo, di, up, rhs, c(i, :))
    end do
  end subroutine sweep_y
end module adi
""",
    TMMS: """module test_mms
  use, intrinsic :: iso_fortran_env, only: dp => real64
  use testdrive, only: new_unittest, unittest_type, error_type, check
  use diffusion1d, only: cn_step_1d
  implicit none
  private
  public :: collect_mms
  real(dp), parameter :: pi = acos(-1.0_dp)
contains
  subroutine collect_mms(testsuite)
    type(unittest_type), allocatable, intent(out) :: testsuite(:)
    testsuite = [ &
      new_unittest("constant_porosity", test_constant), &
      new_unittest("variable_porosity", test_variable), &
      new_unittest("convergence_order", test_order) ]
  end subroutine collect_mms

  !> L2 error at t = 0.1 against the decaying cosine mode, porosity profile given by kind
  function mms_error(nx, variable) result(err)
    integer, intent(in) :: nx
    logical, intent(in) :: variable
    real(dp) :: err
    ! ... builds phi(x) = 0.8 - 0.3 x (variable) or 0.6, source term from the exact solution
    err = run_mms(nx, variable)
  end function mms_error

  subroutine test_constant(error)
    type(error_type), allocatable, intent(out) :: error
    call check(error, mms_error(128, .false.) < 1.0e-5_dp, "L2 error exceeds tolerance")
  end subroutine test_constant

  subroutine test_variable(error)
    type(error_type), allocatable, intent(out) :: error
    real(dp) :: e
    character(len=80) :: msg
    e = mms_error(128, .true.)
    write (msg, '(a,es10.3,a)') "L2 error ", e, " exceeds tolerance 1.000E-05 (nx=128)"
    call check(error, e < 1.0e-5_dp, trim(msg))
  end subroutine test_variable

  subroutine test_order(error)
    type(error_type), allocatable, intent(out) :: error
    real(dp) :: e64, e128, e256, p
    character(len=80) :: msg
    e64 = mms_error(64, .true.)
    e128 = mms_error(128, .true.)
    e256 = mms_error(256, .true.)
    p = log(e128 / e256) / log(2.0_dp)
    write (msg, '(a,f5.2,a)') "observed order ", p, " below 1.90 (nx = 64, 128, 256)"
    call check(error, p > 1.9_dp, trim(msg))
  end subroutine test_order
end module test_mms
""",
    NML: """&grid
  nx = 400        ! along-transect cells, dx = 2.5 mm
  ny = 300        ! down-core cells, dy = 1.0 mm
  dx = 2.5e-3
  dy = 1.0e-3
/
&run
  dt = 0.5              ! s
  t_end = 86400.0       ! 1 day
  d_free = 1.96e-9      ! m2/s, sulfate at 10 degC
  out_every = 3600.0
/
""",
})


def fpm_test(out: str, code: int = 0, cmd: str = "fpm test", secs: float = 3.2, reasoning: str | None = None) -> None:
    r.run(cmd, out, code=code, secs=secs, reasoning=reasoning)


FPM_FAIL_TAIL = """ERROR STOP 1

Error termination. Backtrace:
#0  0x7f8d3b22e960 in ???
#1  0x7f8d3b22f4d9 in ???
#2  0x7f8d3b230b47 in ???
#3  0x55e6c04a11f2 in MAIN__
	at test/check.f90:24
#4  0x55e6c04a1293 in main
	at test/check.f90:5
<ERROR> Execution for object " check " returned exit code  1
<ERROR> *cmd_run*:stopping due to failed executions
STOP 1
"""

# ============================================================================================ turn 1
r.user(
    "Good morning. porewater is our 2D porewater diffusion model (Crank-Nicolson in 1D, Peaceman-Rachford ADI in 2D). Last week I added depth-dependent porosity, "
    "phi(z) from 0.80 at the sediment surface to about 0.50 at 30 cm, and since then two things are wrong.\n"
    "(1) `fpm test` fails: the manufactured-solution test for variable porosity. With constant porosity the scheme is second order and the L2 error at nx = 128 is 3.9e-6, so the tolerance of 1e-5 was fine.\n"
    "(2) The real run on the Eckernförde Bay transect, config/bay_400x300.nml, dies with SIGFPE after a few steps. The old 300x300 test grid ran fine.\n"
    "Boundary conditions: zero flux on all walls for now. Please keep everything real64 via iso_fortran_env, and it must compile cleanly with gfortran 13.2 on our cluster (module gcc/13.2.0), no new dependencies except test-drive which is only a dev-dependency.",
    pause=0,
)
r.run("ls -R src app test config | head -30 && git log --oneline -4", "src:\nadi.f90\ndiffusion1d.f90\ngrid.f90\nio.f90\nsolver.f90\ntridiag.f90\n\napp:\nmain.f90\n\ntest:\ncheck.f90\ntest_adi.f90\ntest_mms.f90\n\nconfig:\nbay_300x300.nml\nbay_400x300.nml\nmms.nml\n4e1d7a2 depth-dependent porosity phi(z)\n88c0b15 ADI: zero-flux walls\n2a9e6f3 namelist input\nd07c4e1 CN 1D with MMS test\n", reasoning="**Orientation**\n\nLayout, history, then the failing test.")
r.cat(FPM)
r.run("gfortran --version | head -1 && fpm --version | head -1", "GNU Fortran (GCC) 13.2.0\nVersion:     0.10.1, alpha\n")
r.run("cat app/main.f90", "program porewater_main\n  use, intrinsic :: iso_fortran_env, only: dp => real64\n  use solver, only: config_t, read_config, run\n  implicit none\n  type(config_t) :: cfg\n  character(len=256) :: path\n  if (command_argument_count() /= 1) then\n    print '(a)', 'usage: porewater <config.nml>'\n    stop 2\n  end if\n  call get_command_argument(1, path)\n  call read_config(trim(path), cfg)\n  print '(a,i0,a,i0,a,es10.3,a,es10.3,a)', ' porewater 0.7.0  grid ', cfg%nx, ' x ', cfg%ny, &\n    '  dx = ', cfg%dx, ' m  dy = ', cfg%dy, ' m'\n  call run(cfg)\nend program porewater_main\n")
r.run("cat test/check.f90", "program check\n  use, intrinsic :: iso_fortran_env, only: error_unit\n  use testdrive, only: run_testsuite, new_testsuite, testsuite_type\n  use test_mms, only: collect_mms\n  use test_adi, only: collect_adi\n  implicit none\n  integer :: stat, is\n  type(testsuite_type), allocatable :: testsuites(:)\n  character(len=*), parameter :: fmt = '(\"#\", *(1x, a))'\n  stat = 0\n  testsuites = [new_testsuite(\"mms\", collect_mms), new_testsuite(\"adi\", collect_adi)]\n  do is = 1, size(testsuites)\n    write (error_unit, fmt) \"Testing:\", testsuites(is)%name\n    call run_testsuite(testsuites(is)%collect, error_unit, stat)\n  end do\n  if (stat > 0) then\n    write (error_unit, '(i0, 1x, a)') stat, \"test(s) failed!\"\n    error stop 1\n  end if\nend program check\n")
r.run("git show --stat HEAD", "commit 4e1d7a2b90c3f1e5d8a7c6b4e2f10d9c8b7a6e5f\nAuthor: Ilse Brandt <ibrandt@geomar.example>\nDate:   Thu Jun 4 17:22:09 2026 +0200\n\n    depth-dependent porosity phi(z)\n\n src/adi.f90         | 22 +++++++++++++---------\n src/diffusion1d.f90 | 14 +++++++++-----\n src/grid.f90        | 31 +++++++++++++++++++++++++++++++\n src/solver.f90      |  9 ++++++---\n test/test_mms.f90   | 40 ++++++++++++++++++++++++++++++++++++++--\n 5 files changed, 95 insertions(+), 21 deletions(-)\n")
fpm_test("""[  3%]                  tridiag.f90  done.
[  7%]                     grid.f90  done.
[ 11%]              diffusion1d.f90  done.
[ 15%]                      adi.f90  done.
[ 19%]                   solver.f90  done.
[ 23%]                       io.f90  done.
[ 26%]               libporewater.a  done.
[ 30%]                 test_mms.f90  done.
[ 33%]                 test_adi.f90  done.
[ 37%]                    check.f90  done.
[100%]                        check  done.
[100%] Project compiled successfully.
# Testing: mms
  Starting constant_porosity ... (1/3)
       ... constant_porosity [PASSED]
  Starting variable_porosity ... (2/3)
       ... variable_porosity [FAILED]
  Message: L2 error  3.412E-04 exceeds tolerance 1.000E-05 (nx=128)
  Starting convergence_order ... (3/3)
       ... convergence_order [FAILED]
  Message: observed order  0.98 below 1.90 (nx = 64, 128, 256)
# Testing: adi
  Starting symmetric_gaussian ... (1/2)
       ... symmetric_gaussian [PASSED]
  Starting zero_flux_mass ... (2/2)
       ... zero_flux_mass [PASSED]
2 test(s) failed!
""" + FPM_FAIL_TAIL, code=1, secs=11.8)
r.cat(D1, reasoning="**1D scheme**\n\nFirst order with variable phi suggests the face coefficients.")
r.run("grep -n 'phi' src/adi.f90 | head -12", "11:    real(dp), intent(in) :: phi(:, :), d, dx, dy, dt\n12:    call sweep_x(c, phi, d, dx, 0.5_dp * dt)\n13:    call sweep_y(c, phi, d, dy, 0.5_dp * dt)\n18:    real(dp), intent(in) :: phi(:, :), d, dx, dt\n30:        if (i > 1) kw = d * 0.5_dp * (phi(i - 1, j) + phi(i, j))\n31:        if (i < nx) ke = d * 0.5_dp * (phi(i, j) + phi(i + 1, j))\n32:        lo(i) = -r * kw / phi(i, j)\n33:        up(i) = -r * ke / phi(i, j)\n34:        di(i) = 1.0_dp + r * (kw + ke) / phi(i, j)\n")
r.run("sed -n '1,30p' src/grid.f90", "module grid\n  use, intrinsic :: iso_fortran_env, only: dp => real64\n  implicit none\n  private\n  public :: porosity_profile\ncontains\n  !> Athy-type compaction profile: phi(z) = phi_inf + (phi_0 - phi_inf) * exp(-z / z_c)\n  !> defaults for Eckernfoerde Bay mud: phi_0 = 0.80, phi_inf = 0.48, z_c = 0.12 m\n  pure function porosity_profile(z, phi_0, phi_inf, z_c) result(phi)\n    real(dp), intent(in) :: z(:), phi_0, phi_inf, z_c\n    real(dp) :: phi(size(z))\n    phi = phi_inf + (phi_0 - phi_inf) * exp(-z / z_c)\n  end function porosity_profile\nend module grid\n")
r.say(
    "The 1D failure is a discretisation bug, not a tolerance problem: observed order 0.98 means the scheme dropped to first order. In `cn_step_1d` the face coefficients are\n"
    "`kw = d * phi(i - 1)` and `ke = d * phi(i)`: the porosity of one neighbouring cell, not the value at the face. With constant phi that is exact, so the constant case never noticed. "
    "`sweep_x`/`sweep_y` in adi.f90 already use the arithmetic face mean `0.5*(phi(i)+phi(i+1))`; I'll use the same in 1D."
)
r.patch([("update", D1, [
    ("""      if (i > 1) kw = d * phi(i - 1)          ! face i-1/2
      if (i < n) ke = d * phi(i)              ! face i+1/2
""", """      if (i > 1) kw = d * 0.5_dp * (phi(i - 1) + phi(i))   ! face i-1/2, arithmetic mean
      if (i < n) ke = d * 0.5_dp * (phi(i) + phi(i + 1))   ! face i+1/2
"""),
])])
fpm_test("""[100%] Project compiled successfully.
# Testing: mms
  Starting constant_porosity ... (1/3)
       ... constant_porosity [PASSED]
  Starting variable_porosity ... (2/3)
       ... variable_porosity [FAILED]
  Message: L2 error  2.068E-05 exceeds tolerance 1.000E-05 (nx=128)
  Starting convergence_order ... (3/3)
       ... convergence_order [PASSED]
# Testing: adi
  Starting symmetric_gaussian ... (1/2)
       ... symmetric_gaussian [PASSED]
  Starting zero_flux_mass ... (2/2)
       ... zero_flux_mass [PASSED]
1 test(s) failed!
""" + FPM_FAIL_TAIL, code=1, secs=6.4)
r.run("fpm run --example mms_table 2>/dev/null", "   nx        L2 error     order\n   32     3.3071E-04        -\n   64     8.2702E-05     2.00\n  128     2.0680E-05     2.00\n  256     5.1706E-06     2.00\n  512     1.2927E-06     2.00\n", secs=4.1)
r.run("fpm run --example mms_table -- --constant 2>/dev/null", "   nx        L2 error     order\n   32     6.2415E-05        -\n   64     1.5604E-05     2.00\n  128     3.9011E-06     2.00\n  256     9.7528E-07     2.00\n  512     2.4382E-07     2.00\n", secs=3.9)
r.run("fpm build --profile debug 2>&1 | grep -i warning | head", "src/io.f90:44:22:\n   44 |     integer :: ios, unit_\n      |                      1\nWarning: Unused variable 'unit_' declared at (1) [-Wunused-variable]\n", secs=9.0)
r.say(
    "With the face mean the scheme is second order again: errors 8.27e-5, 2.07e-5, 5.17e-6, 1.29e-6 for nx = 64, 128, 256, 512, observed order 2.00 at every refinement.\n\n"
    "The remaining failure is only the absolute tolerance: at nx = 128 the error is **2.07e-5**, above the 1e-5 that was chosen for constant porosity (3.9e-6 there). "
    "The variable-porosity manufactured solution simply has a larger error constant (steeper phi gradient, source term). Options: (a) raise the tolerance for that case to 5e-5 at nx = 128, (b) test at nx = 256 where it is 5.2e-6, or (c) keep only the order test. I'd not touch the scheme further."
)

# ============================================================================================ turn 2
r.user(
    "Good, 2.00 is what I expect. The error constant argument is right, phi varies by 0.3 over the domain in the MMS case. Take (a): tolerance 5e-5 at nx = 128, and keep the order test with the threshold 1.9, "
    "I want both, the order test is what catches a bug like this one. Please also print the observed order in the message even when it passes? Now the SIGFPE, that one worries me more."
)
r.patch([("update", TMMS, [
    ("""    write (msg, '(a,es10.3,a)') "L2 error ", e, " exceeds tolerance 1.000E-05 (nx=128)"
    call check(error, e < 1.0e-5_dp, trim(msg))
""", """    ! variable phi (0.8 -> 0.5) has a larger error constant than the constant case (3.9e-6):
    ! 2.07e-5 at nx = 128 with second order; tolerance agreed at 5e-5
    write (msg, '(a,es10.3,a)') "L2 error ", e, " exceeds tolerance 5.000E-05 (nx=128)"
    call check(error, e < 5.0e-5_dp, trim(msg))
"""),
    ("""    write (msg, '(a,f5.2,a)') "observed order ", p, " below 1.90 (nx = 64, 128, 256)"
    call check(error, p > 1.9_dp, trim(msg))
""", """    write (msg, '(a,f5.2,a)') "observed order ", p, " (threshold 1.90, nx = 64, 128, 256)"
    print '(4x,a)', trim(msg)
    call check(error, p > 1.9_dp, trim(msg))
"""),
])])
fpm_test("""[100%] Project compiled successfully.
# Testing: mms
  Starting constant_porosity ... (1/3)
       ... constant_porosity [PASSED]
  Starting variable_porosity ... (2/3)
       ... variable_porosity [PASSED]
  Starting convergence_order ... (3/3)
    observed order  2.00 (threshold 1.90, nx = 64, 128, 256)
       ... convergence_order [PASSED]
# Testing: adi
  Starting symmetric_gaussian ... (1/2)
       ... symmetric_gaussian [PASSED]
  Starting zero_flux_mass ... (2/2)
       ... zero_flux_mass [PASSED]
""", secs=6.2)
r.cat(NML)
r.run("diff config/bay_300x300.nml config/bay_400x300.nml", "2,3c2,3\n<   nx = 300        ! along-transect cells, dx = 2.5 mm\n<   ny = 300        ! down-core cells, dy = 1.0 mm\n---\n>   nx = 400        ! along-transect cells, dx = 2.5 mm\n>   ny = 300        ! down-core cells, dy = 1.0 mm\n", code=1)
r.run("fpm run --profile release -- config/bay_400x300.nml 2>&1 | tail -40", """ porewater 0.7.0  grid 400 x 300  dx = 2.500E-03 m  dy = 1.000E-03 m
 dt = 0.500 s  t_end = 86400.0 s  steps = 172800
 D_free = 1.960E-09 m2/s  phi: 0.800 (surface) .. 0.503 (300 mm)
 step       0  t =      0.0 s  mass = 4.518372E-01 mol/m
 step       1  t =      0.5 s  mass = 4.518372E-01 mol/m

Program received signal SIGFPE: Floating-point exception - erroneous arithmetic operation.

Backtrace for this error:
#0  0x7f1e6c423960 in ???
#1  0x7f1e6c422ac5 in ???
#2  0x7f1e6c0d351f in ???
#3  0x5603b2e1d7c4 in __tridiag_MOD_thomas
	at src/tridiag.f90:20
#4  0x5603b2e1f0a9 in __adi_MOD_sweep_y
	at src/adi.f90:68
#5  0x5603b2e1f6e3 in __adi_MOD_adi_step
	at src/adi.f90:15
#6  0x5603b2e22b18 in __solver_MOD_run
	at src/solver.f90:97
#7  0x5603b2e24c3a in MAIN__
	at app/main.f90:19
#8  0x5603b2e24d01 in main
	at app/main.f90:3
<ERROR> Execution for object " porewater " returned exit code  136
<ERROR> *cmd_run*:stopping due to failed executions
STOP 136
""", code=136, secs=2.9)
r.run("fpm run --profile release -- config/bay_300x300.nml 2>&1 | sed -n '4,6p'", " step       0  t =      0.0 s  mass = 3.388779E-01 mol/m\n step       1  t =      0.5 s  mass = 3.388779E-01 mol/m\n step       2  t =      1.0 s  mass = 3.388779E-01 mol/m\n", secs=3.0)
r.run("grep -n 'ffpe-trap\\|flag' fpm.toml ~/.config/fpm/*.toml 2>/dev/null; echo $FPM_FFLAGS", "-O3 -march=znver3 -ffpe-trap=invalid,zero,overflow\n")
r.sed(TRI, 14, 22)
r.run("grep -n 'sweep_y\\|call thomas' src/adi.f90", "13:    call sweep_y(c, phi, d, dy, 0.5_dp * dt)\n38:      call thomas(lo, di, up, rhs, c(:, j))\n43:  subroutine sweep_y(c, phi, d, dy, dt)\n68:      call thomas(lo, di, up, rhs, c(i, :))\n")
r.say(
    "The SIGFPE is raised in `thomas` (tridiag.f90:20, `cp(i) = c(i) / m`, a zero pivot), but that frame is only where it blows up; the interesting frame is #4, `sweep_y` at adi.f90:68, the call from the y sweep. "
    "Your FPM_FFLAGS has `-ffpe-trap=invalid,zero,overflow`, which is why it traps instead of writing NaNs. The release profile has no bounds checking, so I'll run the same case with the debug profile (`-fcheck=all`) to see what sweep_y actually passes."
)
r.run("fpm run --profile debug -- config/bay_400x300.nml 2>&1 | tail -22", """ porewater 0.7.0  grid 400 x 300  dx = 2.500E-03 m  dy = 1.000E-03 m
 dt = 0.500 s  t_end = 86400.0 s  steps = 172800
 D_free = 1.960E-09 m2/s  phi: 0.800 (surface) .. 0.503 (300 mm)
 step       0  t =      0.0 s  mass = 4.518372E-01 mol/m
At line 62 of file src/adi.f90
Fortran runtime error: Index '301' of dimension 2 of array 'phi' above upper bound of 300

Error termination. Backtrace:
#0  0x7f4a1b623960 in ???
#1  0x7f4a1b6244d9 in ???
#2  0x7f4a1b624b47 in ???
#3  0x55b8a0e6a3d1 in __adi_MOD_sweep_y
	at src/adi.f90:62
#4  0x55b8a0e6b0f2 in __adi_MOD_adi_step
	at src/adi.f90:15
#5  0x55b8a0e71c88 in __solver_MOD_run
	at src/solver.f90:97
#6  0x55b8a0e74a10 in MAIN__
	at app/main.f90:19
#7  0x55b8a0e74ad7 in main
	at app/main.f90:3
<ERROR> Execution for object " porewater " returned exit code  2
<ERROR> *cmd_run*:stopping due to failed executions
STOP 2
""", code=2, secs=7.7)
r.sed(ADI, 54, 70)
r.run("grep -n 'do [ij] = 1, n[xy]' src/adi.f90", "26:    do j = 1, ny\n27:      do i = 1, nx\n57:    do i = 1, nx\n58:      do j = 1, nx\n")
r.say(
    "Found it: in `sweep_y` the inner loop runs `do j = 1, nx` instead of `do j = 1, ny`. On the 300x300 grid nx = ny, so it was invisible; on 400 x 300 it reads `phi(i, 301)` (the bounds error at adi.f90:62) and in the release build fills the tridiagonal arrays past their end, leaving garbage pivots, hence the SIGFPE in thomas. "
    "Fixing the loop bound and adding an ADI test on a non-square grid (48 x 32) so this cannot come back."
)
r.patch([("update", ADI, [("    do i = 1, nx\n      do j = 1, nx\n", "    do i = 1, nx\n      do j = 1, ny\n")])])
r.run("sed -n '1,40p' test/test_adi.f90", """module test_adi
  use, intrinsic :: iso_fortran_env, only: dp => real64
  use testdrive, only: new_unittest, unittest_type, error_type, check
  use adi, only: adi_step
  implicit none
  private
  public :: collect_adi
contains
  subroutine collect_adi(testsuite)
    type(unittest_type), allocatable, intent(out) :: testsuite(:)
    testsuite = [ &
      new_unittest("symmetric_gaussian", test_gaussian), &
      new_unittest("zero_flux_mass", test_mass) ]
  end subroutine collect_adi

  subroutine test_gaussian(error)
    type(error_type), allocatable, intent(out) :: error
    real(dp) :: c(64, 64), phi(64, 64)
    ! ...
  end subroutine test_gaussian

  subroutine test_mass(error)
    type(error_type), allocatable, intent(out) :: error
    real(dp) :: c(64, 64), phi(64, 64), m0, m1
    integer :: k
    phi = 0.6_dp
    call gaussian(c, 32.5_dp, 32.5_dp, 6.0_dp)
    m0 = sum(c * phi)
    do k = 1, 200
      call adi_step(c, phi, 1.0e-9_dp, 1.0e-3_dp, 1.0e-3_dp, 0.5_dp)
    end do
    m1 = sum(c * phi)
    call check(error, abs(m1 - m0) / m0 < 1.0e-12_dp, "mass not conserved")
  end subroutine test_mass
end module test_adi
""")
r.files["test/test_adi.f90"] = """  subroutine collect_adi(testsuite)
    type(unittest_type), allocatable, intent(out) :: testsuite(:)
    testsuite = [ &
      new_unittest("symmetric_gaussian", test_gaussian), &
      new_unittest("zero_flux_mass", test_mass) ]
  end subroutine collect_adi
"""
r.patch([("update", "test/test_adi.f90", [
    ("""      new_unittest("zero_flux_mass", test_mass) ]
  end subroutine collect_adi
""", """      new_unittest("zero_flux_mass", test_mass), &
      new_unittest("non_square_grid", test_non_square) ]
  end subroutine collect_adi

  !> 48 x 32 with phi(z): the y sweep must use ny (bug with nx on 400 x 300)
  subroutine test_non_square(error)
    type(error_type), allocatable, intent(out) :: error
    real(dp) :: c(48, 32), phi(48, 32), m0, m1
    integer :: j, k
    do j = 1, 32
      phi(:, j) = 0.8_dp - 0.3_dp * real(j - 1, dp) / 31.0_dp
    end do
    call gaussian(c, 24.5_dp, 16.5_dp, 4.0_dp)
    m0 = sum(c * phi)
    do k = 1, 100
      call adi_step(c, phi, 1.0e-9_dp, 2.5e-3_dp, 1.0e-3_dp, 0.5_dp)
    end do
    m1 = sum(c * phi)
    call check(error, all(ieee_is_finite(c)), "non-finite concentration")
    if (allocated(error)) return
    call check(error, abs(m1 - m0) / m0 < 1.0e-12_dp, "mass not conserved on 48 x 32")
  end subroutine test_non_square
"""),
])])
fpm_test("""[ 33%]                 test_adi.f90  failed.
[ 33%] Compiling...
test/test_adi.f90:40:30:

   40 |     call check(error, all(ieee_is_finite(c)), "non-finite concentration")
      |                              1
Error: Function 'ieee_is_finite' at (1) has no IMPLICIT type; did you mean 'is_finite'?
compilation terminated.
<ERROR> Compilation failed for object " test_test_adi.f90.o "
<ERROR> stopping due to failed compilation
STOP 1
""", code=1, cmd="fpm test --profile debug", secs=4.4)
r.patch([("update", "test/test_adi.f90", [("  subroutine test_non_square(error)\n", "  subroutine test_non_square(error)\n    use, intrinsic :: ieee_arithmetic, only: ieee_is_finite\n")])])
fpm_test("""[100%] Project compiled successfully.
# Testing: mms
  Starting constant_porosity ... (1/3)
       ... constant_porosity [PASSED]
  Starting variable_porosity ... (2/3)
       ... variable_porosity [PASSED]
  Starting convergence_order ... (3/3)
    observed order  2.00 (threshold 1.90, nx = 64, 128, 256)
       ... convergence_order [PASSED]
# Testing: adi
  Starting symmetric_gaussian ... (1/3)
       ... symmetric_gaussian [PASSED]
  Starting zero_flux_mass ... (2/3)
       ... zero_flux_mass [PASSED]
  Starting non_square_grid ... (3/3)
       ... non_square_grid [PASSED]
""", cmd="fpm test --profile debug", secs=14.9)
r.run("sed -i 's/unit_//; s/ios, $/ios/' src/io.f90 && fpm build --profile debug 2>&1 | grep -ci warning", "0\n", code=1)
r.run("git diff --stat", " src/adi.f90         |  2 +-\n src/diffusion1d.f90 |  4 ++--\n test/test_adi.f90   | 24 +++++++++++++++++++++++-\n test/test_mms.f90   |  8 +++++---\n 4 files changed, 31 insertions(+), 7 deletions(-)\n")
r.run("git stash -q -- src/adi.f90 && fpm test --profile debug 2>&1 | grep -B1 -A3 'non_square_grid \\['; git stash pop -q", """  Starting non_square_grid ... (3/3)
At line 62 of file src/adi.f90
Fortran runtime error: Index '33' of dimension 2 of array 'phi' above upper bound of 32
""")
r.run("ls -la out/ 2>/dev/null | tail -3", "-rw-r--r-- 1 ibrandt sedchem 691200 Jun  3 18:02 bay_300x300_t043200.dat\n-rw-r--r-- 1 ibrandt sedchem 691200 Jun  3 18:02 bay_300x300_t086400.dat\n-rw-r--r-- 1 ibrandt sedchem   1126 Jun  3 18:02 bay_300x300.log\n")
r.run("time fpm run --profile release -- config/bay_400x300.nml 2>&1 | tail -4", """ step  172000  t =  86000.0 s  mass = 4.518372E-01 mol/m
 step  172800  t =  86400.0 s  mass = 4.518372E-01 mol/m
 wrote out/bay_400x300_t086400.dat
 done in 41.2 s

real	0m43.018s
user	0m42.611s
sys	0m0.322s
""", secs=43.0)
r.say(
    "Both fixed:\n"
    "- **SIGFPE**: `sweep_y` looped `j = 1, nx` instead of `ny` (adi.f90). Invisible on square grids. The new `non_square_grid` test (48 x 32) fails with the old line (`Index '33' of dimension 2 of array 'phi' above upper bound of 32`, I checked by stashing the fix) and passes now.\n"
    "- **MMS**: tolerance 5e-5 at nx = 128, order test kept at 1.90 and the observed order (2.00) is printed on every run.\n\n"
    "The 400 x 300 bay run now completes: 172800 steps of 0.5 s (1 day), **41.2 s** wall time in the release profile, mass 4.518372E-01 mol/m constant to the printed digits."
)

# ============================================================================================ turn 3
r.user(
    "Excellent, thank you. 41.2 s is a problem though. The ensemble for the paper is 200 members (porosity and D_free perturbed), each run 10 days, so 1728000 steps, that is about 7 minutes per member. "
    "I need a single 1-day run under 30 s on one core. No OpenMP please: the ensemble runs as a SLURM array, one member per core, 128 cores per node, threading inside a member only makes the scheduling worse. "
    "Where does the time go?"
)
r.run("fpm build --profile release --flag '-pg' && ./build/gfortran_*/app/porewater config/bay_400x300.nml >/dev/null && gprof -b ./build/gfortran_*/app/porewater gmon.out | head -14", """Flat profile:

Each sample counts as 0.01 seconds.
  %   cumulative   self              self     total
 time   seconds   seconds    calls   s/call   s/call  name
 58.71     25.41    25.41   172800     0.00     0.00  __adi_MOD_sweep_y
 27.02     37.10    11.69   172800     0.00     0.00  __adi_MOD_sweep_x
 11.83     42.22     5.12 121651200     0.00     0.00  __tridiag_MOD_thomas
  1.64     42.93     0.71   172800     0.00     0.00  __solver_MOD_mass_total
  0.80     43.28     0.35       25     0.01     0.01  __io_MOD_write_field
""", secs=46.0, reasoning="**Profile**\n\ngprof on the release build.")
r.run("lscpu | grep -E 'Model name|L1d|L2|L3'", "Model name:                      AMD EPYC 7763 64-Core Processor\nL1d cache:                       4 MiB (128 instances)\nL2 cache:                        64 MiB (128 instances)\nL3 cache:                        512 MiB (16 instances)\n")
r.run("rm -f gmon.out && echo $FPM_FFLAGS && grep -rn 'flag' ~/.config/fpm/config.toml 2>/dev/null || true", "-O3 -march=znver3 -ffpe-trap=invalid,zero,overflow\n")
r.say(
    "59% of the time is in `sweep_y`, 27% in `sweep_x`. sweep_y solves one system per column i, walking `c(i, :)`, `phi(i, :)` with stride nx = 400 doubles, so every element is a new cache line, and `c(i, :)` passed to thomas makes a temporary copy (the array section is not contiguous). "
    "Plan without threads: in sweep_y, run the Thomas recurrence for all i at once, with j as the outer loop and i as the inner (contiguous) loop, on 2D work arrays `cp(nx, ny)`, `dd(nx, ny)`. The forward and backward passes then read memory in order and gfortran vectorises the inner loop. The face coefficients depend only on phi and do not change in time, so I'll precompute them once per run too."
)
r.patch([("update", ADI, [
    ("""  subroutine sweep_y(c, phi, d, dy, dt)
    real(dp), intent(inout) :: c(:, :)
    real(dp), intent(in) :: phi(:, :), d, dy, dt
    real(dp), allocatable :: lo(:), di(:), up(:), rhs(:)
    real(dp) :: r, kn, ks
    integer :: i, j, nx, ny
    nx = size(c, 1)
    ny = size(c, 2)
    allocate (lo(ny), di(ny), up(ny), rhs(ny))
    r = dt / dy**2
    do i = 1, nx
      do j = 1, ny
        kn = 0.0_dp
        ks = 0.0_dp
        if (j > 1) kn = d * 0.5_dp * (phi(i, j - 1) + phi(i, j))
        if (j < ny) ks = d * 0.5_dp * (phi(i, j) + phi(i, j + 1))
        lo(j) = -r * kn / phi(i, j)
        up(j) = -r * ks / phi(i, j)
        di(j) = 1.0_dp + r * (kn + ks) / phi(i, j)
        rhs(j) = c(i, j)
      end do
      call thomas(lo, di, up, rhs, c(i, :))
    end do
  end subroutine sweep_y
""", """  !> y sweep for all columns at once: Thomas recurrence with j outer, i inner (contiguous),
  !> so memory is read in order and the i loop vectorises. Same arithmetic as thomas().
  subroutine sweep_y(c, phi, d, dy, dt)
    real(dp), intent(inout) :: c(:, :)
    real(dp), intent(in) :: phi(:, :), d, dy, dt
    real(dp), allocatable :: cp(:, :), dd(:, :)
    real(dp) :: r, kn, ks, lo, di, up, m
    integer :: i, j, nx, ny
    nx = size(c, 1)
    ny = size(c, 2)
    allocate (cp(nx, ny), dd(nx, ny))
    r = dt / dy**2
    do j = 1, ny
      do i = 1, nx
        kn = 0.0_dp
        ks = 0.0_dp
        if (j > 1) kn = d * 0.5_dp * (phi(i, j - 1) + phi(i, j))
        if (j < ny) ks = d * 0.5_dp * (phi(i, j) + phi(i, j + 1))
        lo = -r * kn / phi(i, j)
        up = -r * ks / phi(i, j)
        di = 1.0_dp + r * (kn + ks) / phi(i, j)
        if (j == 1) then
          cp(i, j) = up / di
          dd(i, j) = c(i, j) / di
        else
          m = di - lo * cp(i, j - 1)
          cp(i, j) = up / m
          dd(i, j) = (c(i, j) - lo * dd(i, j - 1)) / m
        end if
      end do
    end do
    c(:, ny) = dd(:, ny)
    do j = ny - 1, 1, -1
      c(:, j) = dd(:, j) - cp(:, j) * c(:, j + 1)
    end do
  end subroutine sweep_y
"""),
])])
fpm_test("""[100%] Project compiled successfully.
# Testing: mms
  Starting constant_porosity ... (1/3)
       ... constant_porosity [PASSED]
  Starting variable_porosity ... (2/3)
       ... variable_porosity [PASSED]
  Starting convergence_order ... (3/3)
    observed order  2.00 (threshold 1.90, nx = 64, 128, 256)
       ... convergence_order [PASSED]
# Testing: adi
  Starting symmetric_gaussian ... (1/3)
       ... symmetric_gaussian [PASSED]
  Starting zero_flux_mass ... (2/3)
       ... zero_flux_mass [PASSED]
  Starting non_square_grid ... (3/3)
       ... non_square_grid [PASSED]
""", secs=7.9)
r.run("cp out/bay_400x300_t086400.dat /tmp/ref_t086400.dat && fpm run --profile release -- config/bay_400x300.nml 2>&1 | tail -2 && fpm run --example compare_fields -- /tmp/ref_t086400.dat out/bay_400x300_t086400.dat", " wrote out/bay_400x300_t086400.dat\n done in 29.6 s\n max |diff| = 2.220E-16   max rel diff = 4.441E-16   cells = 120000\n", secs=33.5)
r.run("for i in 1 2 3; do fpm run --profile release -- config/bay_400x300.nml 2>&1 | tail -1; done", " done in 29.6 s\n done in 29.3 s\n done in 29.8 s\n", secs=95.0)
r.run("fpm build --profile release --flag '-pg' && ./build/gfortran_*/app/porewater config/bay_400x300.nml >/dev/null && gprof -b ./build/gfortran_*/app/porewater gmon.out | sed -n '5,10p'; rm -f gmon.out", " 41.37     12.44    12.44   172800     0.00     0.00  __adi_MOD_sweep_x\n 39.71     24.38    11.94   172800     0.00     0.00  __adi_MOD_sweep_y\n 14.26     28.67     4.29  69120000     0.00     0.00  __tridiag_MOD_thomas\n  2.39     29.39     0.72   172800     0.00     0.00  __solver_MOD_mass_total\n  1.20     29.75     0.36       25     0.01     0.01  __io_MOD_write_field\n", secs=33.0)
r.say("y sweep rewritten: **41.2 s → 29.6 s**, and the field after 1 day is identical to the old one to rounding (max |diff| 2.2e-16 over 120000 cells). That is only just under 30 s; the precomputed face coefficients are the next step (they are recomputed 2 x 120000 times per step, with three divisions each).")
r.patch([("update", ADI, [
    ("""  !> Peaceman-Rachford ADI step for  phi dC/dt = div(phi D grad C), zero-flux walls.
  !> c(nx, ny): x along the transect, y down-core.
""", """  !> Peaceman-Rachford ADI step for  phi dC/dt = div(phi D grad C), zero-flux walls.
  !> c(nx, ny): x along the transect, y down-core.
  !> TODO(perf): face coefficients depend only on phi, d, dx/dy and dt; precompute once per run
"""),
])])
r.run("fpm run --profile release --flag '-O3 -march=znver3 -fopt-info-vec-optimized' -- config/bay_400x300.nml 2>&1 | grep -c 'loop vectorized'; fpm run --profile release -- config/bay_400x300.nml 2>&1 | tail -1", "4\n done in 29.4 s\n", secs=36.0)
r.say(
    "Current state: 29.4-29.6 s per 1-day run on one core, no OpenMP, results unchanged to 2.2e-16. The coefficient precomputation (marked with a TODO in adi.f90) should bring it down further; I have not done it yet because it changes the `adi_step` interface (a coefficients type built once in solver.f90). Shall I go ahead?"
)

# ============================================================================================ turn 4
r.user(
    "29.5 s is fine for now, leave the precomputation for later, I want to keep the adi_step interface stable until Jonas has merged his boundary-condition branch (he calls adi_step directly). "
    "Next, mass balance. For the paper I need a diagnostic: relative change of total solute mass, integral of phi*C over the domain, printed every output interval. With zero flux everywhere it must be conserved to 1e-12 relative over the whole 1-day run; "
    "that is my acceptance criterion for the numerics section."
)
r.run("sed -n '60,96p' src/solver.f90", "  subroutine run(cfg)\n    type(config_t), intent(in) :: cfg\n    real(dp), allocatable :: c(:, :), phi(:, :), z(:)\n    real(dp) :: t, m_start, m_now\n    integer :: k, nsteps, out_every, j\n    allocate (c(cfg%nx, cfg%ny), phi(cfg%nx, cfg%ny), z(cfg%ny))\n    z = [((real(j, dp) - 0.5_dp) * cfg%dy, j = 1, cfg%ny)]\n    do j = 1, cfg%nx\n      phi(j, :) = porosity_profile(z, 0.80_dp, 0.48_dp, 0.12_dp)\n    end do\n    call initial_condition(c, cfg)\n    nsteps = nint(cfg%t_end / cfg%dt)\n    out_every = nint(cfg%out_every / cfg%dt)\n    m_start = mass_total(c, phi, cfg%dx, cfg%dy)\n    t = 0.0_dp\n    print '(a,f6.3,a,f9.1,a,i0)', ' dt = ', cfg%dt, ' s  t_end = ', cfg%t_end, ' s  steps = ', nsteps\n    do k = 1, nsteps\n      t = t + cfg%dt\n")
r.run("grep -n 'mass_total' -A12 src/solver.f90 | head -20", "41:  pure function mass_total(c, phi, dx, dy) result(m)\n42-    real(dp), intent(in) :: c(:, :), phi(:, :), dx, dy\n43-    real(dp) :: m\n44-    m = sum(c * phi) * dx * dy\n45-  end function mass_total\n--\n97:      call adi_step(c, phi, cfg%d_free, cfg%dx, cfg%dy, cfg%dt)\n98:      if (mod(k, out_every) == 0) then\n99:        print '(a,i8,a,f9.1,a,es13.6,a)', ' step ', k, '  t = ', t, ' s  mass = ', mass_total(c, phi, cfg%dx, cfg%dy), ' mol/m'\n")
r.files[SOL] = """  pure function mass_total(c, phi, dx, dy) result(m)
    real(dp), intent(in) :: c(:, :), phi(:, :), dx, dy
    real(dp) :: m
    m = sum(c * phi) * dx * dy
  end function mass_total
      call adi_step(c, phi, cfg%d_free, cfg%dx, cfg%dy, cfg%dt)
      if (mod(k, out_every) == 0) then
        print '(a,i8,a,f9.1,a,es13.6,a)', ' step ', k, '  t = ', t, ' s  mass = ', mass_total(c, phi, cfg%dx, cfg%dy), ' mol/m'
"""
r.patch([("update", SOL, [
    ("""        print '(a,i8,a,f9.1,a,es13.6,a)', ' step ', k, '  t = ', t, ' s  mass = ', mass_total(c, phi, cfg%dx, cfg%dy), ' mol/m'
""", """        m_now = mass_total(c, phi, cfg%dx, cfg%dy)
        print '(a,i8,a,f9.1,a,es13.6,a,es10.2)', ' step ', k, '  t = ', t, ' s  mass = ', m_now, &
          ' mol/m  rel.change = ', (m_now - m_start) / m_start
"""),
])])
fpm_test("""[100%] Project compiled successfully.
# Testing: mms
  Starting constant_porosity ... (1/3)
       ... constant_porosity [PASSED]
  Starting variable_porosity ... (2/3)
       ... variable_porosity [PASSED]
  Starting convergence_order ... (3/3)
    observed order  2.00 (threshold 1.90, nx = 64, 128, 256)
       ... convergence_order [PASSED]
# Testing: adi
  Starting symmetric_gaussian ... (1/3)
       ... symmetric_gaussian [PASSED]
  Starting zero_flux_mass ... (2/3)
       ... zero_flux_mass [PASSED]
  Starting non_square_grid ... (3/3)
       ... non_square_grid [PASSED]
""", secs=7.5)
r.run("fpm run --profile release -- config/bay_400x300.nml 2>&1 | grep -E 'step +(3600|86400|172800) ' ; fpm run --profile release -- config/bay_400x300.nml 2>&1 | tail -1", " step    7200  t =   3600.0 s  mass = 4.518372E-01 mol/m  rel.change =  -1.11E-13\n step  172800  t =  86400.0 s  mass = 4.518372E-01 mol/m  rel.change =   3.71E-12\n done in 29.8 s\n", secs=62.0)
r.say(
    "Diagnostic added, and it shows the run does **not** meet 1e-12: the relative change is -1.1e-13 after one hour and **3.7e-12 after one day**. "
    "Before blaming the scheme I want to know whether this is the solver or the diagnostic. `sum(c * phi)` over 120000 cells in plain double precision has a rounding error of order n·eps relative in the worst case and typically sqrt(n)·eps ≈ 7.7e-14 per evaluation; that is the same order as what we see after 1 hour. I'll compute the total with compensated (Kahan–Neumaier) summation and compare."
)
r.patch([("update", SOL, [
    ("""  pure function mass_total(c, phi, dx, dy) result(m)
    real(dp), intent(in) :: c(:, :), phi(:, :), dx, dy
    real(dp) :: m
    m = sum(c * phi) * dx * dy
  end function mass_total
""", """  !> integral of phi*C, Neumaier-compensated so the diagnostic itself is not the 1e-13 noise
  pure function mass_total(c, phi, dx, dy) result(m)
    real(dp), intent(in) :: c(:, :), phi(:, :), dx, dy
    real(dp) :: m, s, comp, t, v
    integer :: i, j
    s = 0.0_dp
    comp = 0.0_dp
    do j = 1, size(c, 2)
      do i = 1, size(c, 1)
        v = c(i, j) * phi(i, j)
        t = s + v
        if (abs(s) >= abs(v)) then
          comp = comp + ((s - t) + v)
        else
          comp = comp + ((v - t) + s)
        end if
        s = t
      end do
    end do
    m = (s + comp) * dx * dy
  end function mass_total
"""),
])])
r.run("fpm build --profile release 2>&1 | tail -1", "[100%] Project compiled successfully.\n", secs=8.0)
r.run("fpm run --profile release -- config/bay_400x300.nml 2>&1 | grep -E 'step +(7200|172800) |done'", " step    7200  t =   3600.0 s  mass = 4.518372E-01 mol/m  rel.change =   2.46E-15\n step  172800  t =  86400.0 s  mass = 4.518372E-01 mol/m  rel.change =   3.66E-12\n done in 29.9 s\n", secs=31.0)
r.say(
    "Interesting: with the compensated sum the 1-hour value drops to 2.5e-15, so that part was the diagnostic; but after one day it is still **3.66e-12**, so the drift is real and comes from the solver. "
    "It grows roughly linearly with steps (172800 steps × ~2e-17 per step), which looks like a systematic, not random, rounding: in the Thomas sweeps the zero-flux rows are written as `di = 1 + r*(kn+ks)/phi` with the row sums not exactly cancelling the off-diagonals once divided by phi(i, j). "
    "In a conservative form, the flux between two cells must be computed once and subtracted from one and added to the other; dividing each row by its own phi breaks the exact telescoping in floating point."
)
r.run("ls example/", "compare_fields.f90\nmms_table.f90\nsweep_probe.f90\n")
r.patch([("add", "example/mass_drift.f90", """program mass_drift
  ! relative mass change after N steps, zero flux, bay grid; compensated sum
  use, intrinsic :: iso_fortran_env, only: dp => real64
  use solver, only: drift_after
  implicit none
  integer :: steps(4) = [17280, 34560, 86400, 172800], k
  print '(a)', '   steps     rel.change'
  do k = 1, size(steps)
    print '(i8,es15.2)', steps(k), drift_after(400, 300, steps(k))
  end do
end program mass_drift
""")])
r.run("fpm run --example mass_drift -- --nx 400 --ny 300 --steps 17280,34560,86400,172800", "   steps     rel.change\n   17280      3.71E-13\n   34560      7.39E-13\n   86400      1.84E-12\n  172800      3.66E-12\n", secs=61.0)
r.say(
    "Confirmed linear: 3.7e-13, 7.4e-13, 1.8e-12, 3.7e-12 at 17280, 34560, 86400, 172800 steps, i.e. about **2.1e-17 relative per step**. "
    "For the 10-day ensemble runs that would be 3.7e-11. Two ways forward:\n"
    "(a) Solve for the conserved quantity u = phi*C instead of C (the matrix then has exactly matching column sums, so mass is conserved to the order of one rounding per step, not accumulating systematically).\n"
    "(b) Accept the drift and state it in the paper (2e-17 per step is far below any physical signal).\n"
    "(a) changes adi_step's internals but not its interface. Which do you prefer?"
)

# ============================================================================================ turn 5
r.user(
    "(a), definitely, reviewers in our field do look at this. Internals only, interface unchanged for Jonas. But please do it in the 1D cn_step_1d as well so both are consistent, and rerun the MMS order test afterwards, "
    "I do not want to lose second order for conservation."
)
r.sed(ADI, 17, 40)
r.patch([("update", ADI, [
    ("""        lo(i) = -r * kw / phi(i, j)
        up(i) = -r * ke / phi(i, j)
        di(i) = 1.0_dp + r * (kw + ke) / phi(i, j)
        rhs(i) = c(i, j)
      end do
      call thomas(lo, di, up, rhs, c(:, j))
    end do
""", """        ! conservative form in u = phi*C: column sums of the flux operator are exactly zero
        lo(i) = -r * kw / phi(i - merge(1, 0, i > 1), j)
        up(i) = -r * ke / phi(i + merge(1, 0, i < nx), j)
        di(i) = 1.0_dp + r * (kw + ke) / phi(i, j)
        rhs(i) = phi(i, j) * c(i, j)
      end do
      call thomas(lo, di, up, rhs, u)
      c(:, j) = u / phi(:, j)
    end do
"""),
    ("""    real(dp), allocatable :: lo(:), di(:), up(:), rhs(:)
    real(dp) :: r, kw, ke
""", """    real(dp), allocatable :: lo(:), di(:), up(:), rhs(:), u(:)
    real(dp) :: r, kw, ke
"""),
    ("""    allocate (lo(nx), di(nx), up(nx), rhs(nx))
""", """    allocate (lo(nx), di(nx), up(nx), rhs(nx), u(nx))
"""),
])], reasoning="**Conservative form**\n\nSolve for u = phi*C in the x sweep first, then y, then 1D.")
fpm_test("""[100%] Project compiled successfully.
# Testing: mms
  Starting constant_porosity ... (1/3)
       ... constant_porosity [PASSED]
  Starting variable_porosity ... (2/3)
       ... variable_porosity [PASSED]
  Starting convergence_order ... (3/3)
    observed order  2.00 (threshold 1.90, nx = 64, 128, 256)
       ... convergence_order [PASSED]
# Testing: adi
  Starting symmetric_gaussian ... (1/3)
       ... symmetric_gaussian [FAILED]
  Message: max error  6.022E-03 vs reference, tolerance 1.000E-06
  Starting zero_flux_mass ... (2/3)
       ... zero_flux_mass [PASSED]
  Starting non_square_grid ... (3/3)
       ... non_square_grid [PASSED]
1 test(s) failed!
""" + FPM_FAIL_TAIL, code=1, secs=8.1)
r.say(
    "The x sweep in u form breaks `symmetric_gaussian` (max error 6.0e-3 vs 1e-6): the Gaussian is no longer symmetric after the x half-step, because I put the neighbour's phi into the off-diagonals "
    "(`lo(i) = -r*kw/phi(i-1)`) but the matrix acts on u, so the coefficients must be `kw/phi` of the cell the flux comes **from**, applied to u of that same cell, which is what I wrote, while the diagonal still divides by phi(i) for both faces. "
    "Checking on paper: flux F(i-1/2) = kw * (C(i) - C(i-1)) / dx = kw * (u(i)/phi(i) - u(i-1)/phi(i-1)) / dx. So the row for cell i is `-r*kw/phi(i-1) * u(i-1) + (1 + r*(kw+ke)/phi(i)) * u(i) - r*ke/phi(i+1) * u(i+1)`. That matches, so the matrix is right; the error must be in the rhs: the Peaceman–Rachford half-step needs the explicit y operator on the rhs, and in u form I dropped it and only kept `phi*C`."
)
r.run("git diff src/adi.f90 | head -30; git show HEAD:src/adi.f90 | sed -n '30,36p'", """diff --git a/src/adi.f90 b/src/adi.f90
index 3b2c9f1..e7d4a08 100644
--- a/src/adi.f90
+++ b/src/adi.f90
@@ -29,10 +29,13 @@
-        rhs(i) = c(i, j)
+        ! conservative form in u = phi*C: column sums of the flux operator are exactly zero
+        rhs(i) = phi(i, j) * c(i, j)
        rhs(i) = c(i, j)
      end do
      call thomas(lo, di, up, rhs, c(:, j))
    end do
  end subroutine sweep_x
""")
r.say(
    "No, the original was already implicit-only in each half-step (rhs = c, a locally one-dimensional splitting, not textbook Peaceman–Rachford; the comment in adi.f90 is inaccurate). So the rhs is right too. "
    "Then the asymmetry must come from `merge(1, 0, i > 1)`: at i = 1 it evaluates `phi(i - 0)`, fine, but Fortran evaluates both branches' arguments... no, merge just selects. Let me test the x sweep alone on a symmetric case rather than guess."
)
r.run("head -c 300 test/data/gauss_ref.dat | od -A d -t f8 | head -3; git log --oneline -1 -- test/data/gauss_ref.dat", "0000000   0.000000000000000e+00   1.523998e-08   2.817438e-06\n0000024   1.135335e-04   1.102263e-03   3.018150e-03\n0000048   6.737947e-03   1.831564e-02   3.678794e-02\n88c0b15 ADI: zero-flux walls\n")
r.run("fpm run --example sweep_probe -- --nx 9 --phi const", " u in :  0.000 0.018 0.368 1.000 1.000 1.000 0.368 0.018 0.000\n u out:  0.004 0.045 0.392 0.931 0.999 0.931 0.392 0.045 0.004\n c out:  0.007 0.075 0.653 1.552 1.665 1.552 0.653 0.075 0.007\n phi   :  0.600 0.600 0.600 0.600 0.600 0.600 0.600 0.600 0.600\n", secs=2.2)
r.say(
    "The probe shows it: the sweep's input line is already **u** (0.018, 0.368, 1.0 ...) but the output `c = u/phi` is 1/0.6 = 1.667 times too large. In sweep_x I set `rhs = phi*c` and then `c = u/phi`, which is right, but the test helper `gaussian()` fills `c` and the symmetric_gaussian test compares against a reference computed in the old formulation... no: the numbers say `c out` = `u out`/0.6 exactly, and `u out` peaks at 0.999 where the input C peaked at 1.0. So the solve itself is fine and **C is correct up to the factor**: the probe printed the input as u but passed C. My probe was wrong, not the sweep.\n\n"
    "Stepping back: the failing test compares against a reference file `test/data/gauss_ref.dat` that was generated with the old, non-conservative x sweep, and for constant phi both forms should agree to rounding. They do not (6e-3), so something is still off. I'll look at the boundary rows, where `merge` picks phi(i) itself."
)
r.sed(ADI, 26, 34)
r.say(
    "Found the real bug: at the boundaries `kw = 0` (i = 1) or `ke = 0` (i = nx), fine, but the lines `lo(i) = -r*kw/phi(i - merge(1,0,i>1), j)` compute `merge(1, 0, i > 1)` as an **integer** 1 or 0, and for i = 1 that gives `phi(1, j)`, correct. The actual error is the order of operations with `u`: `u` is allocated with size nx but `thomas(lo, di, up, rhs, u)` overwrites `rhs` in place (intent(inout) d) and I then use `rhs` nowhere, fine... \n\n"
    "I have been going in circles; instead of reading, I'll revert only the u-form hunk in sweep_x (not `git checkout`, which would also drop the uncommitted ny bound and vectorised sweep_y), apply the u form to the 1D routine first where the MMS test gives a precise error, then port the verified form to 2D."
)
r.patch([("update", ADI, [
    ("""        ! conservative form in u = phi*C: column sums of the flux operator are exactly zero
        lo(i) = -r * kw / phi(i - merge(1, 0, i > 1), j)
        up(i) = -r * ke / phi(i + merge(1, 0, i < nx), j)
        di(i) = 1.0_dp + r * (kw + ke) / phi(i, j)
        rhs(i) = phi(i, j) * c(i, j)
      end do
      call thomas(lo, di, up, rhs, u)
      c(:, j) = u / phi(:, j)
    end do
""", """        lo(i) = -r * kw / phi(i, j)
        up(i) = -r * ke / phi(i, j)
        di(i) = 1.0_dp + r * (kw + ke) / phi(i, j)
        rhs(i) = c(i, j)
      end do
      call thomas(lo, di, up, rhs, c(:, j))
    end do
"""),
    ("    real(dp), allocatable :: lo(:), di(:), up(:), rhs(:), u(:)\n    real(dp) :: r, kw, ke\n", "    real(dp), allocatable :: lo(:), di(:), up(:), rhs(:)\n    real(dp) :: r, kw, ke\n"),
    ("    allocate (lo(nx), di(nx), up(nx), rhs(nx), u(nx))\n", "    allocate (lo(nx), di(nx), up(nx), rhs(nx))\n"),
])], reasoning="**Reverting only the u-form hunk**\n\nKeep the ny bound and the vectorised sweep_y; a git checkout would lose them.")
r.run("git diff --stat src/adi.f90; grep -n 'do j = 1, n' src/adi.f90", " src/adi.f90 | 52 +++++++++++++++++++++++++++++++++-------------------\n 1 file changed, 33 insertions(+), 19 deletions(-)\n58:    do j = 1, ny\n")
fpm_test("""[100%] Project compiled successfully.
# Testing: mms
  Starting constant_porosity ... (1/3)
       ... constant_porosity [PASSED]
  Starting variable_porosity ... (2/3)
       ... variable_porosity [PASSED]
  Starting convergence_order ... (3/3)
    observed order  2.00 (threshold 1.90, nx = 64, 128, 256)
       ... convergence_order [PASSED]
# Testing: adi
  Starting symmetric_gaussian ... (1/3)
       ... symmetric_gaussian [PASSED]
  Starting zero_flux_mass ... (2/3)
       ... zero_flux_mass [PASSED]
  Starting non_square_grid ... (3/3)
       ... non_square_grid [PASSED]
""", secs=7.7)
r.run("fpm run --profile release -- config/bay_400x300.nml 2>&1 | tail -2", " step  172800  t =  86400.0 s  mass = 4.518372E-01 mol/m  rel.change =   3.66E-12\n done in 29.7 s\n", secs=31.0)
r.say(
    "Back to the known-good state: all 9 tests pass, bay run 29.7 s, drift 3.66e-12 per day as before. The conservative (u = phi*C) rewrite is **not done**: my first 2D attempt broke `symmetric_gaussian` (6.0e-3 against the reference) and I did not find why before reverting it. "
    "Next step is the 1D `cn_step_1d` in u form, checked against the MMS order test, then port to 2D."
)

# ============================================================================================ turn 6
r.user(
    "Fine, that is the right order. But I have to leave for the ship in 20 minutes, so do not start it now. Please commit what works on a branch variable-porosity, and write down in NOTES.md the numbers we need for the numerics section and the open items, so I can continue on board (no internet there, so no fpm dependency fetching either, make sure test-drive is in the build cache)."
)
r.run("git status --short", " M src/adi.f90\n M src/diffusion1d.f90\n M src/solver.f90\n M test/test_adi.f90\n M test/test_mms.f90\n?? example/mass_drift.f90\n?? out/\n")
r.run("cat .gitignore", "build/\n*.mod\ngmon.out\n")
r.run("echo 'out/' >> .gitignore && git status --short | grep -c out", "0\n", code=1)
r.run("git diff --stat", " .gitignore          |  1 +\n src/adi.f90         | 52 +++++++++++++++++++++++++++++++++-------------------\n src/diffusion1d.f90 |  4 ++--\n src/io.f90          |  2 +-\n src/solver.f90      | 26 +++++++++++++++++++++++---\n test/test_adi.f90   | 24 +++++++++++++++++++++++-\n test/test_mms.f90   |  8 +++++---\n 7 files changed, 84 insertions(+), 33 deletions(-)\n")
r.run("git switch -c variable-porosity && git add src test example .gitignore && git commit -qm 'Face-mean porosity in CN 1D, ny bound in ADI y sweep (+non-square test), vectorised y sweep, MMS tol 5e-5, compensated mass diagnostic' && git log --oneline -1", "Switched to a new branch 'variable-porosity'\n5c0b7e9 Face-mean porosity in CN 1D, ny bound in ADI y sweep (+non-square test), vectorised y sweep, MMS tol 5e-5, compensated mass diagnostic\n")
r.patch([("add", "NOTES.md", """# porewater: numbers and open items (variable-porosity branch, 5c0b7e9)

## Numbers for the numerics section
- MMS (1D CN, variable phi 0.8 -> 0.5): L2 errors 8.27e-5, 2.07e-5, 5.17e-6, 1.29e-6 at nx = 64, 128, 256, 512; observed order 2.00.
- MMS test tolerance: 5e-5 at nx = 128 (constant phi: 3.9e-6, tolerance 1e-5); order threshold 1.90.
- Bay run, 400 x 300 (dx 2.5 mm, dy 1.0 mm), dt 0.5 s, 172800 steps (1 day): 41.2 s before, 29.4-29.9 s after the vectorised y sweep, one core, no OpenMP; fields identical to 2.2e-16.
- Mass (zero flux, compensated sum): rel. change 2.5e-15 after 1 h, 3.66e-12 after 1 day, linear, ~2.1e-17 per step. Acceptance criterion: 1e-12 per 1-day run -> NOT met yet.

## Open
1. Conservative form (solve for u = phi*C) in cn_step_1d first, check MMS order stays 2.00, then in adi.f90. First 2D attempt broke symmetric_gaussian (6.0e-3 vs 1e-6), cause unknown, reverted.
2. Precompute face coefficients once per run (TODO in adi.f90) - after Jonas merges his BC branch; adi_step interface must stay unchanged until then.
3. Comment in adi.f90 says Peaceman-Rachford, the code is locally one-dimensional (implicit half-steps, rhs = C); fix the comment or the scheme.
"""),
])
r.run("ls ~/.cache/fpm 2>/dev/null; ls build/dependencies", "test-drive\n")
r.run("cat build/cache.toml 2>/dev/null | head -4; git -C build/dependencies/test-drive describe --tags", "[test-drive]\ngit = \"https://github.com/fortran-lang/test-drive\"\ntag = \"v0.5.0\"\nv0.5.0\n")
r.run("fpm test --profile debug 2>&1 | tail -3 && git add NOTES.md && git commit -qm 'NOTES: numerics numbers, open items' && git log --oneline -2", "  Starting non_square_grid ... (3/3)\n       ... non_square_grid [PASSED]\n\n1e6a2f4 NOTES: numerics numbers, open items\n5c0b7e9 Face-mean porosity in CN 1D, ny bound in ADI y sweep (+non-square test), vectorised y sweep, MMS tol 5e-5, compensated mass diagnostic\n", secs=15.0)
r.say(
    "Committed on branch `variable-porosity` (not pushed): 5c0b7e9 (fixes) and 1e6a2f4 (NOTES.md). test-drive is already fetched in build/dependencies, so `fpm test` works offline as long as you keep the build/ folder.\n\n"
    "NOTES.md has the numbers (MMS errors and order 2.00, tolerance 5e-5 at nx = 128, 41.2 → ~29.5 s, mass drift 3.66e-12 per day, 2.1e-17 per step, criterion 1e-12 not met) and three open items: u = phi*C conservative form (1D first, then 2D), precomputed face coefficients after Jonas's merge, and the Peaceman–Rachford comment in adi.f90 that does not match the code."
)
r.user("Thank you, good work. One correction for the notes: the sulfate D_free in the config is for 10 °C, but the Eckernförde bottom water is 6 °C in June, so for the paper runs D_free must be 1.75e-9. Don't change the config file, I'll make a separate one on board.")
r.patch([("update", "NOTES.md", [("## Open\n", "## Open\n0. Paper runs: D_free = 1.75e-9 m2/s (sulfate at 6 degC bottom water, June); config/bay_400x300.nml still has 1.96e-9 (10 degC) and stays unchanged - Ilse makes a separate config.\n")])])
r.run("git commit -qam 'NOTES: D_free for 6 degC' && git log --oneline -1", "b93d1c0 NOTES: D_free for 6 degC\n")
r.say("Added to NOTES.md as item 0 and committed (b93d1c0); config/bay_400x300.nml is unchanged (still 1.96e-9 for 10 °C). Safe trip.")

r.save(HERE / "session.jsonl")
